import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { siteConfig } from "../../../site.config";
import { createOpenAiCompatibleRephraser } from "~/features/site-config/ai/openai-compatible.server";
import { regenerateWordings } from "~/features/site-config/ai/regenerate-wordings.server";
import { RephraseError, type RephraseRequest } from "~/features/site-config/ai/rephrase.server";
import { mapTexts, REPHRASE_TONE, wordingsOf, type Wordings } from "~/features/site-config/generator/wordings";

// A chat-completions server on loopback: each test says how it answers; the requests are kept.
type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;
let handler: Handler;
const received: { path: string; headers: IncomingMessage["headers"]; body: Record<string, unknown> }[] = [];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      received.push({ path: request.url!, headers: request.headers, body: JSON.parse(body) });
      handler(request, body, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received.length = 0;
});

const API_KEY = "sk-test-0123456789abcdef";
const wordings = wordingsOf(siteConfig);
const request: RephraseRequest = {
  wordings,
  companyName: "Skyway Travel",
  previousCompanyName: siteConfig.company.name,
  tone: REPHRASE_TONE,
};
const rephraser = (timeoutMs = 5000) =>
  createOpenAiCompatibleRephraser({ baseUrl: `${baseUrl}/`, apiKey: API_KEY, model: "test-model", timeoutMs });

/** What a well-behaved model would answer: the brand replaced and every text visibly rewritten. */
const modelAnswer: Wordings = mapTexts(
  wordings,
  (text) => `${text.replaceAll("Jetlane", "Skyway Travel")} (rephrased)`,
);

function json(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
}

function completion(content: string | null, extra: Record<string, unknown> = {}) {
  return {
    id: "chatcmpl-1",
    object: "chat.completion",
    model: "test-model",
    choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content, ...extra } }],
  };
}

const answerWith = (status: number, body: unknown) => {
  handler = (_request, _body, response) => json(response, status, body);
};

async function rephraseError(promise: Promise<unknown>): Promise<RephraseError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(RephraseError);
  return error as RephraseError;
}

describe("the OpenAI-compatible rephraser", () => {
  it("asks for structured output with the wordings' JSON schema and returns the validated answer", async () => {
    answerWith(200, completion(JSON.stringify(modelAnswer)));
    expect(await rephraser().rephrase(request)).toEqual(modelAnswer);

    const [call] = received;
    expect(call!.path).toBe("/v1/chat/completions");
    expect(call!.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(call!.headers["content-type"]).toBe("application/json");
    const body = call!.body as {
      model: string;
      messages: { role: string; content: string }[];
      response_format: { type: string; json_schema: { strict: boolean; schema: { required: string[] } } };
    };
    expect(body.model).toBe("test-model");
    expect(body.response_format.type).toBe("json_schema");
    expect(body.response_format.json_schema.strict).toBe(true);
    expect(body.response_format.json_schema.schema.required).toEqual([
      "hero",
      "services",
      "concierge",
      "whyChooseUs",
      "plans",
      "seo",
    ]);
    const user = JSON.parse(body.messages.find((message) => message.role === "user")!.content);
    expect(user).toEqual({
      newCompanyName: "Skyway Travel",
      previousCompanyName: "Jetlane",
      tone: "Professional, friendly, and reassuring",
      texts: wordings,
    });
  });

  it("answers through regenerateWordings with the provider named", async () => {
    answerWith(200, completion(JSON.stringify(modelAnswer)));
    const { status, answer } = await regenerateWordings(
      { currentContent: wordings, brandInfo: { companyName: "Skyway Travel", tone: REPHRASE_TONE } },
      { rephraser: rephraser() },
    );
    expect(status).toBe(200);
    expect(answer).toEqual({ success: true, rephrased: modelAnswer, error: null, provider: "openai-compatible" });
  });

  it("accepts an answer wrapped in a Markdown code fence", async () => {
    answerWith(200, completion(`\`\`\`json\n${JSON.stringify(modelAnswer)}\n\`\`\``));
    expect(await rephraser().rephrase(request)).toEqual(modelAnswer);
  });

  it("refuses a malformed answer: content that is not JSON, or a body that is not JSON", async () => {
    answerWith(200, completion('{"hero": {"title": "Half an ans'));
    expect((await rephraseError(rephraser().rephrase(request))).message).toBe("The AI answer is not valid JSON");

    handler = (_request, _body, response) => response.writeHead(200).end("<html>gateway</html>");
    expect((await rephraseError(rephraser().rephrase(request))).message).toBe("The AI provider's answer is not JSON");

    answerWith(200, { choices: [] });
    expect((await rephraseError(rephraser().rephrase(request))).message).toMatch(
      /^The AI provider's answer is not a chat completion/,
    );
  });

  it("refuses an answer of the wrong shape, naming what is wrong", async () => {
    const { hero: _hero, ...withoutHero } = modelAnswer;
    answerWith(200, completion(JSON.stringify(withoutHero)));
    expect((await rephraseError(rephraser().rephrase(request))).message).toMatch(
      /^The AI answer does not have the expected shape \(hero: /,
    );

    answerWith(200, completion(JSON.stringify({ ...modelAnswer, seo: { ...modelAnswer.seo, defaultTitle: "   " } })));
    expect((await rephraseError(rephraser().rephrase(request))).message).toMatch(
      /seo\.defaultTitle: must not be empty/,
    );
  });

  it("refuses a partial answer as a whole: a list with items missing, or a changed price", async () => {
    const body = { currentContent: wordings, brandInfo: { companyName: "Skyway Travel" } };
    const shortened = {
      ...modelAnswer,
      whyChooseUs: { ...modelAnswer.whyChooseUs, reasons: modelAnswer.whyChooseUs.reasons.slice(1) },
    };
    answerWith(200, completion(JSON.stringify(shortened)));
    const partial = await regenerateWordings(body, { rephraser: rephraser() });
    expect(partial.status).toBe(502);
    expect(partial.answer).toEqual({
      success: false,
      rephrased: null,
      error: "The rephrased texts are incomplete: whyChooseUs.reasons has 2 items instead of 3",
      provider: "openai-compatible",
    });

    const repriced = { ...modelAnswer, hero: { ...modelAnswer.hero, subtitle: "Everything, from 59 per quarter." } };
    answerWith(200, completion(JSON.stringify(repriced)));
    const changed = await regenerateWordings(body, { rephraser: rephraser() });
    expect(changed.answer.error).toBe("The rephrased texts state numbers the originals do not: 59");
  });

  it("refuses a refusal and an answer cut off by the token limit", async () => {
    answerWith(200, completion(null, { refusal: "I can't help with that." }));
    expect((await rephraseError(rephraser().rephrase(request))).message).toBe(
      "The AI model refused: I can't help with that.",
    );

    answerWith(200, { choices: [{ finish_reason: "length", message: { content: '{"hero":' } }] });
    expect((await rephraseError(rephraser().rephrase(request))).message).toBe(
      "The AI answer was cut off before it was complete",
    );
  });

  it("gives up after its timeout", async () => {
    handler = () => {}; // never answers
    const started = Date.now();
    const error = await rephraseError(rephraser(300).rephrase(request));
    expect(error.message).toBe("The AI provider did not answer within 300 ms");
    expect(Date.now() - started).toBeLessThan(3000);

    handler = (_request, _body, response) => {
      response.writeHead(200, { "Content-Type": "application/json" });
      response.write('{"choices": ['); // and then nothing more
    };
    expect((await rephraseError(rephraser(300).rephrase(request))).message).toBe(
      "The AI provider did not answer within 300 ms",
    );
  });

  it("reports a server error with the provider's message", async () => {
    answerWith(500, { error: { message: "The model is overloaded", type: "server_error" } });
    expect((await rephraseError(rephraser().rephrase(request))).message).toBe(
      "The AI provider answered HTTP 500: The model is overloaded",
    );
    handler = (_request, _body, response) => response.writeHead(503).end("Service Unavailable");
    expect((await rephraseError(rephraser().rephrase(request))).message).toBe("The AI provider answered HTTP 503");
  });

  it("never repeats the API key, even when the provider echoes it", async () => {
    answerWith(401, { error: { message: `Incorrect API key provided: ${API_KEY}` } });
    const { answer } = await regenerateWordings(
      { currentContent: wordings, brandInfo: { companyName: "Skyway Travel" } },
      { rephraser: rephraser() },
    );
    expect(answer.error).toBe("The AI provider answered HTTP 401: Incorrect API key provided: [redacted]");
  });

  it("says when the provider cannot be reached", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const unreachable = createOpenAiCompatibleRephraser({
      baseUrl: `http://127.0.0.1:${port}/v1`,
      model: "m",
      timeoutMs: 5000,
    });
    expect((await rephraseError(unreachable.rephrase(request))).message).toMatch(
      new RegExp(`^Could not reach the AI provider at http://127.0.0.1:${port}`),
    );
  });
});
