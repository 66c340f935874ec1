import { regenerateWordings } from "~/features/site-config/ai/regenerate-wordings.server";
import type { RephraseProvider, Rephraser } from "~/features/site-config/ai/rephrase.server";
import { siteConfig } from "../../../../site.config";
import { buildSiteConfig } from "./build-site-config";
import type { GeneratorForm } from "./generator-schema";
import type { SiteConfig } from "~/features/site-config/types";
import { REPHRASE_TONE, wordingsOf } from "./wordings";

export type GenerateOutcome =
  | { status: "generated"; config: SiteConfig; provider: RephraseProvider }
  | { status: "failed"; error: string; provider: RephraseProvider };

/** The rebranded configuration for the generator's form: site.config.ts with every wording rephrased. */
export async function generateSiteConfig(form: GeneratorForm, rephraser?: Rephraser): Promise<GenerateOutcome> {
  const { answer } = await regenerateWordings(
    { currentContent: wordingsOf(siteConfig), brandInfo: { companyName: form.companyName, tone: REPHRASE_TONE } },
    { rephraser },
  );
  if (!answer.success) return { status: "failed", error: answer.error, provider: answer.provider };
  return {
    status: "generated",
    config: buildSiteConfig(siteConfig, form, answer.rephrased),
    provider: answer.provider,
  };
}
