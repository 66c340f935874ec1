import { describe, expect, it } from "vitest";
import { siteConfig } from "../../../../site.config";
import { introducedNumbers, wordingsOf, wordingsSchema, wordingTexts } from "~/features/site-config/generator/wordings";
import { PHRASE_BANK, offlineRephraser, rephraseOffline } from "./offline-rephraser";
import type { RephraseRequest } from "./rephrase.server";

const request: RephraseRequest = {
  wordings: wordingsOf(siteConfig),
  companyName: "Skyway Travel",
  previousCompanyName: siteConfig.company.name,
  tone: "Professional, friendly, and reassuring",
};

const numbersIn = (text: string) => text.match(/\d+/g) ?? [];

describe("the offline rephraser", () => {
  const rephrased = rephraseOffline(request);
  const before = wordingTexts(request.wordings);
  const after = wordingTexts(rephrased);

  it("answers the same shape, and passes the wordings schema", () => {
    expect(after.map(({ path }) => path)).toEqual(before.map(({ path }) => path));
    expect(wordingsSchema.parse(rephrased)).toEqual(rephrased);
  });

  it("replaces the old brand name everywhere, including in SEO texts", () => {
    const mentions = before.filter(({ text }) => /jetlane/i.test(text));
    expect(mentions.length).toBeGreaterThanOrEqual(2);
    for (const { path, text } of after) {
      expect(text, path).not.toMatch(/jetlane/i);
    }
    for (const { path } of mentions) {
      expect(after.find((entry) => entry.path === path)!.text, path).toContain("Skyway Travel");
    }
  });

  it("keeps every number of every text: prices, durations and hours", () => {
    for (const [index, { path, text }] of before.entries()) {
      expect(numbersIn(after[index]!.text), path).toEqual(numbersIn(text));
    }
    expect(introducedNumbers(request.wordings, rephrased)).toEqual([]);
    expect(rephrased.plans.medium.features[0]).toMatch(/^3-day /);
  });

  it("really rewrites the wording, not only the brand name", () => {
    const texts = before.filter(({ path }) => !path.startsWith("seo.keywords"));
    const changed = texts.filter(
      ({ path, text }) =>
        after.find((entry) => entry.path === path)!.text !== text.replace(/Jetlane/g, "Skyway Travel"),
    );
    expect(changed.length / texts.length).toBeGreaterThan(0.9);
    expect(rephrased.hero.title).not.toBe(request.wordings.hero.title);
    expect(rephrased.hero.title).toMatch(/^[A-Z]/);
  });

  it("keeps SEO keywords as search terms, with only the brand replaced", () => {
    expect(rephrased.seo.keywords).toEqual(request.wordings.seo.keywords);
  });

  it("is deterministic, and varies with the brand", async () => {
    expect(rephraseOffline(request)).toEqual(rephrased);
    expect(await offlineRephraser.rephrase(request)).toEqual(rephrased);
    const other = wordingTexts(rephraseOffline({ ...request, companyName: "Blue Gate" }));
    const differing = other.filter(
      ({ path, text }) =>
        text.replace(/Blue Gate/g, "") !== after.find((e) => e.path === path)!.text.replace(/Skyway Travel/g, ""),
    );
    expect(differing.length).toBeGreaterThan(5);
  });

  it("rewrites its own output again", () => {
    const twice = rephraseOffline({ ...request, wordings: rephrased, previousCompanyName: "Skyway Travel" });
    expect(twice.hero.title).not.toBe(rephrased.hero.title);
  });

  it("keeps the letter case of what it replaces", () => {
    const shout = rephraseOffline({
      ...request,
      wordings: {
        ...request.wordings,
        hero: { title: "SIMPLIFIED TRAVEL", subtitle: "Skip-the-Line Attractions", cta: "enjoy" },
      },
    });
    expect(shout.hero.title).toMatch(/^[A-Z -]+$/);
    expect(shout.hero.subtitle).toMatch(/^(Queue-Free|No-Queue) Attractions$/);
    expect(shout.hero.cta).toMatch(/^(make the most of|take advantage of)$/);
  });

  it("never touches a brand name that contains a phrase of the bank", () => {
    const result = rephraseOffline({ ...request, companyName: "Simplified Travel Co" });
    expect(result.whyChooseUs.title).toContain("Simplified Travel Co");
  });

  it("draws on a phrase bank without digits and with each phrase in one group only", () => {
    const phrases = PHRASE_BANK.flat();
    expect(new Set(phrases).size).toBe(phrases.length);
    expect(phrases.filter((phrase) => /\d/.test(phrase) || phrase !== phrase.toLowerCase())).toEqual([]);
    expect(PHRASE_BANK.every((group) => group.length >= 2)).toBe(true);
  });
});
