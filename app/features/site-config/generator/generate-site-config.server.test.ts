import { describe, expect, it } from "vitest";
import { siteConfig } from "../../../../site.config";
import { offlineRephraser } from "~/features/site-config/ai/offline-rephraser";
import { RephraseError } from "~/features/site-config/ai/rephrase.server";
import { generateSiteConfig } from "./generate-site-config.server";
import { generatorFormSchema } from "./generator-schema";

const form = generatorFormSchema.parse({
  companyName: "Skyway Travel",
  primaryColor: "350 70% 50%",
  accentColor: "1 2% 3%",
});

describe("generateSiteConfig", () => {
  it("rebrands site.config.ts with the rephrased wordings", async () => {
    const outcome = await generateSiteConfig(form, offlineRephraser);
    expect(outcome.status).toBe("generated");
    if (outcome.status !== "generated") return;
    expect(outcome.provider).toBe("offline");
    expect(outcome.config.company.name).toBe("Skyway Travel");
    expect(outcome.config.content.whyChooseUs.title).toMatch(/Skyway Travel$/);
    expect(outcome.config.content.hero.title).not.toBe(siteConfig.content.hero.title);
    expect(outcome.config.colors.primary).toBe("350 70% 50%");
  });

  it("passes a rephrasing failure on, with nothing generated", async () => {
    const outcome = await generateSiteConfig(form, {
      provider: "openai-compatible",
      rephrase: () => Promise.reject(new RephraseError("The AI answer is not valid JSON")),
    });
    expect(outcome).toEqual({
      status: "failed",
      error: "The AI answer is not valid JSON",
      provider: "openai-compatible",
    });
  });
});
