import { z } from "~/lib/zod";
import { env, type Env } from "~/env.server";
import { logger } from "~/logger.server";
import {
  introducedNumbers,
  REPHRASE_TONE,
  shapeMismatches,
  wordingsSchema,
  type Wordings,
} from "~/features/site-config/generator/wordings";
import { siteConfig } from "../../../../site.config";
import { offlineRephraser } from "./offline-rephraser";
import { createOpenAiCompatibleRephraser } from "./openai-compatible.server";
import { RephraseError, type RephraseProvider, type Rephraser } from "./rephrase.server";

/** The body of a call to POST /api/regenerate-wordings (`app/routes/api.regenerate-wordings.ts`). */
export const regenerateRequestSchema = z.object({
  currentContent: wordingsSchema,
  brandInfo: z.object({
    companyName: z.string().trim().min(1, "is required").max(100),
    tone: z.string().trim().min(1).max(200).default(REPHRASE_TONE),
  }),
});

export type RegenerateAnswer =
  | { success: true; rephrased: Wordings; error: null; provider: RephraseProvider }
  | { success: false; rephrased: null; error: string; provider: RephraseProvider };

/** The configured AI endpoint, or the offline rephraser when there is none. */
export function rephraserFromEnv(config: Env = env()): Rephraser {
  if (!config.AI_BASE_URL || !config.AI_MODEL) return offlineRephraser;
  return createOpenAiCompatibleRephraser({
    baseUrl: config.AI_BASE_URL,
    apiKey: config.AI_API_KEY,
    model: config.AI_MODEL,
    timeoutMs: config.AI_TIMEOUT_MS,
  });
}

interface RegenerateOptions {
  rephraser?: Rephraser;
  /** The brand the current wordings name; by default the one in site.config.ts. */
  previousCompanyName?: string;
}

/**
 * Validates a regenerate-wordings body and has every wording rewritten for the new brand. The answer
 * is all or nothing: a rewrite that lost items of a list or states a number the original never did
 * (a price, a duration) is refused as a whole, so nothing half-right reaches a configuration.
 */
export async function regenerateWordings(
  body: unknown,
  { rephraser = rephraserFromEnv(), previousCompanyName = siteConfig.company.name }: RegenerateOptions = {},
): Promise<{ status: 200 | 400 | 502; answer: RegenerateAnswer }> {
  const { provider } = rephraser;
  const failure = (status: 400 | 502, error: string) => ({
    status,
    answer: { success: false as const, rephrased: null, error, provider },
  });

  const request = regenerateRequestSchema.safeParse(body);
  if (!request.success) {
    const problems = request.error.issues.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`);
    return failure(400, `Invalid request: ${problems.slice(0, 5).join("; ")}`);
  }
  const { currentContent, brandInfo } = request.data;

  try {
    const rephrased = await rephraser.rephrase({
      wordings: currentContent,
      companyName: brandInfo.companyName,
      previousCompanyName,
      tone: brandInfo.tone,
    });
    const mismatches = shapeMismatches(currentContent, rephrased);
    if (mismatches.length) throw new RephraseError(`The rephrased texts are incomplete: ${mismatches.join("; ")}`);
    const numbers = introducedNumbers(currentContent, rephrased, brandInfo.companyName);
    if (numbers.length)
      throw new RephraseError(`The rephrased texts state numbers the originals do not: ${numbers.join(", ")}`);
    return { status: 200, answer: { success: true, rephrased, error: null, provider } };
  } catch (error) {
    const message = error instanceof RephraseError ? error.message : "Regeneration failed";
    logger.warn(
      { provider, err: error instanceof RephraseError ? undefined : error },
      `regenerate wordings: ${message}`,
    );
    return failure(502, message);
  }
}
