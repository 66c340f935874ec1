import { describe, expect, it } from "vitest";
import { siteConfig } from "../../../../site.config";
import { parseEnv } from "~/env.server";
import { REPHRASE_TONE, wordingsOf } from "~/features/site-config/generator/wordings";
import { offlineRephraser, rephraseOffline } from "./offline-rephraser";
import { regenerateWordings, rephraserFromEnv } from "./regenerate-wordings.server";
import { RephraseError, type Rephraser } from "./rephrase.server";

const currentContent = wordingsOf(siteConfig);
const body = { currentContent, brandInfo: { companyName: "Skyway Travel", tone: REPHRASE_TONE } };
const failing = (error: unknown): Rephraser => ({
  provider: "openai-compatible",
  rephrase: () => Promise.reject(error),
});

describe("regenerateWordings", () => {
  it("rephrases with the offline rephraser and says so", async () => {
    const { status, answer } = await regenerateWordings(body, { rephraser: offlineRephraser });
    expect(status).toBe(200);
    expect(answer).toEqual({
      success: true,
      error: null,
      provider: "offline",
      rephrased: rephraseOffline({
        wordings: currentContent,
        companyName: "Skyway Travel",
        previousCompanyName: "Jetlane",
        tone: REPHRASE_TONE,
      }),
    });
  });

  it("defaults the tone, and replaces the brand of site.config.ts", async () => {
    const { answer } = await regenerateWordings(
      { currentContent, brandInfo: { companyName: "Skyway Travel" } },
      { rephraser: offlineRephraser },
    );
    expect(answer.rephrased?.whyChooseUs.title).toMatch(/Skyway Travel$/);
  });

  it("accepts a brand whose name holds a number", async () => {
    const { status, answer } = await regenerateWordings(
      { currentContent, brandInfo: { companyName: "Route 66 Travel" } },
      { rephraser: offlineRephraser },
    );
    expect(status).toBe(200);
    expect(answer.rephrased?.seo.defaultTitle).toMatch(/^Route 66 Travel \|/);
  });

  it.each([
    [undefined, /^Invalid request: body: /],
    ["text", /^Invalid request: body: /],
    [{ currentContent }, /brandInfo: /],
    [{ ...body, brandInfo: { companyName: "  " } }, /brandInfo\.companyName: is required/],
    [
      { ...body, currentContent: { ...currentContent, hero: { title: "Only a title" } } },
      /currentContent\.hero\.subtitle: /,
    ],
    [
      { ...body, currentContent: { ...currentContent, seo: { ...currentContent.seo, keywords: "one" } } },
      /seo\.keywords/,
    ],
  ])("answers 400 with a clear error for the body %j", async (invalid, message) => {
    const { status, answer } = await regenerateWordings(invalid, { rephraser: offlineRephraser });
    expect(status).toBe(400);
    expect(answer.success).toBe(false);
    expect(answer.rephrased).toBeNull();
    expect(answer.error).toMatch(message);
  });

  it("answers 502 with the provider's message when rephrasing fails", async () => {
    const { status, answer } = await regenerateWordings(body, {
      rephraser: failing(new RephraseError("The AI answer is not valid JSON")),
    });
    expect(status).toBe(502);
    expect(answer).toEqual({
      success: false,
      rephrased: null,
      error: "The AI answer is not valid JSON",
      provider: "openai-compatible",
    });
  });

  it("keeps an unexpected error's details out of the answer", async () => {
    const { answer } = await regenerateWordings(body, { rephraser: failing(new TypeError("internal detail")) });
    expect(answer.error).toBe("Regeneration failed");
  });
});

describe("rephraserFromEnv", () => {
  it("uses the offline rephraser unless an AI endpoint is configured", () => {
    expect(rephraserFromEnv(parseEnv({})).provider).toBe("offline");
    expect(
      rephraserFromEnv(parseEnv({ AI_BASE_URL: "http://127.0.0.1:11434/v1", AI_MODEL: "llama3.1" })).provider,
    ).toBe("openai-compatible");
  });
});
