import { z } from "~/lib/zod";
import { wordingsSchema, type Wordings } from "~/features/site-config/generator/wordings";
import { RephraseError, type Rephraser, type RephraseRequest } from "./rephrase.server";

export interface OpenAiCompatibleOptions {
  /** The API root, e.g. https://api.openai.com/v1 or http://localhost:11434/v1 (Ollama). */
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}

const SYSTEM_PROMPT = [
  "You rewrite the marketing texts of a travel-services membership website for a rebrand.",
  "You receive the new company name, the previous company name, the tone to write in, and the texts as JSON.",
  "Rules:",
  "1. Replace every mention of the previous company name with the new company name.",
  "2. Rephrase every text in the requested tone. Keep its meaning and roughly its length.",
  "3. Keep every number exactly as written: prices, durations, counts and hours (49, 3-day, 9 AM, 300).",
  "   Never add a number, a price or a promise the text did not make.",
  "4. Keep the JSON structure: the same keys and the same number of items in every list.",
  "5. SEO keywords stay short search phrases.",
  "Answer with the JSON object of the rewritten texts only.",
].join("\n");

/**
 * The wordings schema as a JSON Schema for structured output. Length limits are dropped: not every
 * provider accepts them in strict mode, and the answer is validated with zod anyway.
 */
const WORDINGS_JSON_SCHEMA = (() => {
  const schema: Record<string, unknown> = z.toJSONSchema(wordingsSchema, {
    override: ({ jsonSchema }) => {
      for (const keyword of ["minLength", "maxLength", "minItems", "maxItems"] as const) delete jsonSchema[keyword];
    },
  });
  delete schema.$schema;
  return schema;
})();

const chatCompletionSchema = z.object({
  choices: z
    .array(
      z.object({
        finish_reason: z.string().nullish(),
        message: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }),
      }),
    )
    .min(1),
});

const errorBodySchema = z.object({ error: z.union([z.string(), z.object({ message: z.string() })]) });

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join(".") || "answer"}: ${issue.message}`)
    .join("; ");
}

/** Some servers wrap the JSON in a Markdown code fence even when asked for structured output. */
function withoutCodeFence(content: string): string {
  return content
    .trim()
    .replace(/^```(?:json)?\s*/i, "")
    .replace(/\s*```$/, "");
}

export function createOpenAiCompatibleRephraser(options: OpenAiCompatibleOptions): Rephraser {
  const endpoint = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const redact = (text: string) => (options.apiKey ? text.replaceAll(options.apiKey, "[redacted]") : text);
  const fail = (message: string): never => {
    throw new RephraseError(redact(message));
  };

  async function call(request: RephraseRequest): Promise<{ status: number; body: string }> {
    const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json" };
    if (options.apiKey) headers.Authorization = `Bearer ${options.apiKey}`;
    const payload = {
      model: options.model,
      messages: [
        { role: "system", content: SYSTEM_PROMPT },
        {
          role: "user",
          content: JSON.stringify({
            newCompanyName: request.companyName,
            previousCompanyName: request.previousCompanyName,
            tone: request.tone,
            texts: request.wordings,
          }),
        },
      ],
      response_format: {
        type: "json_schema",
        json_schema: { name: "site_wordings", strict: true, schema: WORDINGS_JSON_SCHEMA },
      },
    };
    try {
      const response = await fetch(endpoint, {
        method: "POST",
        headers,
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      return { status: response.status, body: await response.text() };
    } catch (error) {
      if (error instanceof Error && error.name === "TimeoutError") {
        return fail(`The AI provider did not answer within ${options.timeoutMs} ms`);
      }
      const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : "";
      return fail(`Could not reach the AI provider at ${new URL(endpoint).origin}${cause ? ` (${cause})` : ""}`);
    }
  }

  function errorMessage(status: number, body: string): string {
    try {
      const parsed = errorBodySchema.safeParse(JSON.parse(body));
      if (parsed.success) {
        const { error } = parsed.data;
        return `The AI provider answered HTTP ${status}: ${(typeof error === "string" ? error : error.message).slice(0, 300)}`;
      }
    } catch {
      // not JSON: the status says enough
    }
    return `The AI provider answered HTTP ${status}`;
  }

  function wordingsFrom(body: string): Wordings {
    let completion: unknown;
    try {
      completion = JSON.parse(body);
    } catch {
      return fail("The AI provider's answer is not JSON");
    }
    const parsed = chatCompletionSchema.safeParse(completion);
    if (!parsed.success)
      return fail(`The AI provider's answer is not a chat completion (${describeIssues(parsed.error)})`);
    const [choice] = parsed.data.choices;
    if (choice!.message.refusal) return fail(`The AI model refused: ${choice!.message.refusal.slice(0, 300)}`);
    if (choice!.finish_reason === "length") return fail("The AI answer was cut off before it was complete");
    if (!choice!.message.content) return fail("The AI answer is empty");
    let content: unknown;
    try {
      content = JSON.parse(withoutCodeFence(choice!.message.content));
    } catch {
      return fail("The AI answer is not valid JSON");
    }
    const wordings = wordingsSchema.safeParse(content);
    if (!wordings.success)
      return fail(`The AI answer does not have the expected shape (${describeIssues(wordings.error)})`);
    return wordings.data;
  }

  return {
    provider: "openai-compatible",
    async rephrase(request) {
      const { status, body } = await call(request);
      if (status < 200 || status >= 300) return fail(errorMessage(status, body));
      return wordingsFrom(body);
    },
  };
}
