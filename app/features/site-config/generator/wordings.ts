import { z } from "~/lib/zod";
import type { SiteConfig } from "~/features/site-config/types";

/** The tone the generator asks the rephraser for. */
export const REPHRASE_TONE = "Professional, friendly, and reassuring";

const text = z.string().trim().min(1, "must not be empty").max(1000);
const titledText = z.object({ title: text, description: text });
const planTexts = z.object({ description: text, features: z.array(text).max(20) });

/**
 * Every marketing text of the site that the generator rephrases: `content` (hero, services,
 * concierge, whyChooseUs) as it is in `site.config.ts`, plus the plans' descriptions and features and the SEO
 * texts. Plan ids, names and prices are not wordings and never leave `site.config.ts`.
 */
export const wordingsSchema = z.object({
  hero: z.object({ title: text, subtitle: text, cta: text }),
  services: z.object({
    fastTrack: titledText,
    checkIn: titledText,
    museums: titledText,
    lounges: titledText,
    ebooks: titledText,
    concierge: titledText,
  }),
  concierge: z.object({ title: text, description: text, benefits: z.array(titledText).max(12) }),
  whyChooseUs: z.object({ title: text, reasons: z.array(titledText).max(12) }),
  plans: z.object({ medium: planTexts, premium: planTexts }),
  seo: z.object({ defaultTitle: text, defaultDescription: text, keywords: z.array(text).max(20) }),
});

export type Wordings = z.infer<typeof wordingsSchema>;

export function wordingsOf(config: SiteConfig): Wordings {
  const planTextsOf = ({ description, features }: SiteConfig["pricing"]["medium"]) => ({ description, features });
  return {
    ...config.content,
    plans: { medium: planTextsOf(config.pricing.medium), premium: planTextsOf(config.pricing.premium) },
    seo: config.seo,
  };
}

/** `value` with every string in it replaced by `visit(text, path)`; the structure is kept as it is. */
export function mapTexts<T>(value: T, visit: (text: string, path: string[]) => string, path: string[] = []): T {
  if (typeof value === "string") return visit(value, path) as T;
  if (Array.isArray(value)) return value.map((item, index) => mapTexts(item, visit, [...path, String(index)])) as T;
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, mapTexts(item, visit, [...path, key])]),
    ) as T;
  }
  return value;
}

/** Every text of `wordings` with its path, e.g. `whyChooseUs.reasons.0.title`. */
export function wordingTexts(wordings: Wordings): { path: string; text: string }[] {
  const texts: { path: string; text: string }[] = [];
  mapTexts(wordings, (text, path) => {
    texts.push({ path: path.join("."), text });
    return text;
  });
  return texts;
}

function listLengths(wordings: Wordings): Record<string, number> {
  return {
    "whyChooseUs.reasons": wordings.whyChooseUs.reasons.length,
    "concierge.benefits": wordings.concierge.benefits.length,
    "plans.medium.features": wordings.plans.medium.features.length,
    "plans.premium.features": wordings.plans.premium.features.length,
    "seo.keywords": wordings.seo.keywords.length,
  };
}

/** Where `candidate` does not have the structure of `original`: a list with another number of items. */
export function shapeMismatches(original: Wordings, candidate: Wordings): string[] {
  const actual = listLengths(candidate);
  return Object.entries(listLengths(original))
    .filter(([path, length]) => actual[path] !== length)
    .map(([path, length]) => `${path} has ${actual[path]} items instead of ${length}`);
}

const NUMBER = /\d+(?:[.,:]\d+)*/g;

/**
 * Numbers (prices, durations, hours) that `candidate` states but `original` never did; numbers in the
 * new brand's name ("Route 66") do not count.
 */
export function introducedNumbers(original: Wordings, candidate: Wordings, companyName = ""): string[] {
  const known = new Set(wordingTexts(original).flatMap(({ text }) => text.match(NUMBER) ?? []));
  const stated = wordingTexts(candidate).flatMap(
    ({ text }) => (companyName ? text.replaceAll(companyName, " ") : text).match(NUMBER) ?? [],
  );
  return [...new Set(stated.filter((number) => !known.has(number)))];
}
