import { describe, expect, it } from "vitest";
import { siteConfig } from "../../../../site.config";
import { introducedNumbers, mapTexts, shapeMismatches, wordingsOf, wordingsSchema, wordingTexts } from "./wordings";

const wordings = wordingsOf(siteConfig);

describe("wordingsOf", () => {
  it("takes content, the plans' texts and the SEO texts of a configuration", () => {
    expect(wordingsSchema.parse(wordings)).toEqual(wordings);
    expect(wordings.hero).toEqual(siteConfig.content.hero);
    expect(wordings.plans.premium.features).toEqual(siteConfig.pricing.premium.features);
    expect(wordings.seo).toEqual(siteConfig.seo);
    expect(Object.keys(wordings.plans.medium)).toEqual(["description", "features"]);
  });
});

describe("mapTexts and wordingTexts", () => {
  it("visit every text with its path and keep the structure", () => {
    const upper = mapTexts(wordings, (text) => text.toUpperCase());
    expect(upper.whyChooseUs.reasons).toHaveLength(wordings.whyChooseUs.reasons.length);
    expect(upper.hero.cta).toBe(wordings.hero.cta.toUpperCase());
    expect(wordingTexts(wordings)).toContainEqual({ path: "whyChooseUs.reasons.2.title", text: "People who answer" });
  });
});

describe("shapeMismatches", () => {
  it("names each list whose length changed", () => {
    expect(shapeMismatches(wordings, wordings)).toEqual([]);
    const shorter = { ...wordings, seo: { ...wordings.seo, keywords: ["one"] } };
    expect(shapeMismatches(wordings, shorter)).toEqual(["seo.keywords has 1 items instead of 5"]);
  });
});

describe("introducedNumbers", () => {
  it("finds numbers the original never stated", () => {
    expect(introducedNumbers(wordings, wordings)).toEqual([]);
    const changed = mapTexts(wordings, (text) => text.replace("3-day free trial", "7.5-day free trial"));
    expect(introducedNumbers(wordings, changed)).toEqual(["7.5"]);
  });
});
