import { brandNamePattern } from "~/features/site-config/brand-name";
import { mapTexts, type Wordings } from "~/features/site-config/generator/wordings";
import type { Rephraser, RephraseRequest } from "./rephrase.server";

/**
 * Interchangeable phrasings, lower case, in the tone of the site. A phrase found in a text is
 * replaced by another member of its group, so rephrasing an already rephrased text changes it again.
 * No phrase holds a digit: prices, durations and hours are never touched.
 */
export const PHRASE_BANK: readonly (readonly string[])[] = [
  ["simplified travel", "effortless travel", "stress-free travel", "smoother travel"],
  ["extraordinary experiences", "remarkable journeys", "unforgettable moments", "exceptional trips"],
  ["start your journey", "begin your journey", "plan your next trip", "get going today"],
  ["fast-track security lanes", "priority security lanes", "fast lanes through security"],
  ["skip the long security queues", "leave the long security queues behind", "bypass the long security lines"],
  ["skip airport security queues", "bypass airport security lines", "leave airport security queues behind"],
  ["a dedicated lane", "a reserved lane", "a priority lane"],
  ["connected airports", "partner airports", "participating airports"],
  ["reach your gate relaxed", "arrive at your gate calm", "get to your gate at ease"],
  ["the moment your flight opens", "as soon as check-in opens", "the minute your flight opens for check-in"],
  ["send your boarding pass", "deliver your boarding pass", "share your boarding pass"],
  ["so you never miss the window", "so you never miss check-in", "so the window never closes on you"],
  ["walk straight into", "head straight into", "go straight into"],
  ["museums and attractions", "museums and landmarks", "museums and sights"],
  ["at your destination", "wherever you land", "wherever you travel"],
  ["priority entry", "fast-lane entry", "front-of-line entry"],
  ["for members", "for our members", "reserved for members"],
  ["why travellers choose", "why travellers love", "why frequent travellers pick"],
  ["one membership, every trip", "one membership for every journey", "every trip, one membership"],
  ["under a single quarterly fee", "for one quarterly fee", "in a single quarterly plan"],
  ["try it free", "try it at no cost", "start free"],
  ["you can cancel at any time", "you are free to cancel whenever you like", "you can cancel whenever you wish"],
  ["cancel anytime", "cancel whenever you like", "no lock-in, cancel any time"],
  ["people who answer", "real people, real answers", "a team that answers"],
  ["our team helps you", "our team is there for you", "our team supports you"],
  ["by phone, e-mail and chat", "by phone, e-mail or chat", "over the phone, by e-mail and in chat"],
  ["every plan starts with", "each plan begins with", "all plans open with"],
  ["the essentials for", "the core benefits for", "all the basics for"],
  ["travellers who fly a few times a season", "travellers who fly now and then", "occasional flyers"],
  ["everything we offer", "our complete package", "the full membership"],
  ["frequent flyers", "regular flyers", "seasoned travellers"],
  ["who want the airport to disappear", "who want airports to feel effortless", "who want the airport to be a breeze"],
  ["exclusive lounge discounts", "members-only lounge discounts", "special lounge savings"],
  ["lounge discounts", "lounge savings", "lounge deals"],
  ["travel perks", "travel benefits", "travel extras"],
  ["get checked in automatically", "have check-in done for you", "get checked in without lifting a finger"],
  ["enjoy", "make the most of", "take advantage of"],
  ["in one membership", "in a single membership", "all in one membership"],
  ["included", "built in", "part of the plan"],
  ["selected museums", "featured museums", "handpicked museums"],
  ["automated check-in", "automatic check-in", "hands-free check-in"],
  ["automated", "automatic"],
  ["unlimited museum skip-the-line", "unlimited skip-the-line museum entry", "unlimited queue-free museum visits"],
  ["skip-the-line", "queue-free", "no-queue"],
  ["airport fast track", "fast track at the airport", "airport priority lane"],
  ["museum entry", "museum access", "museum admission"],
  ["start with", "begin with", "kick off with"],
  ["per month", "each month", "every month"],
  ["per quarter", "every quarter", "a quarter"],
  ["accesses", "passes", "uses"],
  ["wait for boarding in comfort", "relax before boarding", "wait for your flight in comfort"],
  [
    "reduced entry to partner airport lounges",
    "discounted access to partner airport lounges",
    "lower prices at partner airport lounges",
  ],
  ["travel e-books", "travel guides to read", "e-books for the road"],
  ["concierge service", "personal concierge", "concierge help"],
  ["we arrange it for you", "we take care of it", "we sort it out for you"],
  ["a travel concierge in your pocket", "your personal travel assistant", "a concierge that travels with you"],
  ["reservations made for you", "bookings handled for you", "reservations taken care of"],
  ["booked and confirmed by a real person", "booked and confirmed by our team", "arranged and confirmed by a person"],
  ["help when plans change", "support when plans shift", "a hand when plans change"],
  ["we look for alternatives", "we find alternatives", "we search for other options"],
  ["local knowledge", "insider tips", "local insight"],
  ["tailored to your trip", "matched to your trip", "made for your trip"],
  ["one contact for everything", "a single contact for it all", "one place to ask"],
  ["we keep track of your requests", "we follow up on your requests", "we look after your requests"],
  ["free trial", "trial at no cost", "no-cost trial"],
  ["unlimited", "limitless"],
  ["relaxed", "calm", "unhurried"],
];

const SMALL_WORDS = new Set(["a", "an", "and", "at", "by", "for", "in", "of", "on", "or", "the", "to", "with"]);

const groupOf = new Map(PHRASE_BANK.flatMap((group) => group.map((phrase) => [phrase, group] as const)));

const escape = (phrase: string) => phrase.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Every phrase of the bank, longest first so that "exclusive lounge discounts" wins over "lounge discounts". */
const PHRASES = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${[...groupOf.keys()]
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join("|")})(?![\\p{L}\\p{N}])`,
  "giu",
);

/** Stable across runs and machines (FNV-1a), so the same request always gets the same wording. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (const character of text) {
    value ^= character.codePointAt(0)!;
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value;
}

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** `replacement` written in the letter case of `original`: UPPER, Title Case, Sentence case or lower. */
function matchCase(original: string, replacement: string): string {
  if (/\p{Lu}{2}/u.test(original) && original === original.toUpperCase()) return replacement.toUpperCase();
  const words = original.split(/[\s-]+/);
  const capitalised = words.filter((word) => /^\p{Lu}/u.test(word)).length;
  if (capitalised >= 2 && /^\p{Lu}/u.test(original) && capitalised * 2 >= words.length) {
    return replacement
      .split(/([\s-]+)/)
      .map((part, index, parts) =>
        /\s/.test(parts[index - 1] ?? "") && SMALL_WORDS.has(part) ? part : capitalise(part),
      )
      .join("");
  }
  return /^\p{Lu}/u.test(original) ? capitalise(replacement) : replacement;
}

function rephraseSegment(segment: string, seed: string): string {
  return segment.replace(PHRASES, (found: string, offset: number) => {
    const group = groupOf.get(found.toLowerCase())!;
    const others = group.filter((phrase) => phrase !== found.toLowerCase());
    return matchCase(found, others[hash(`${seed}|${offset}|${found.toLowerCase()}`) % others.length]!);
  });
}

/** `text` with the old brand replaced by the new one and the rest rewritten (when `rephrase` is set). */
function rewrite(text: string, request: RephraseRequest, seed: string, rephrase: boolean): string {
  const edit = (segment: string) => (rephrase ? rephraseSegment(segment, seed) : segment);
  if (!request.previousCompanyName.trim()) return edit(text);
  let result = "";
  let last = 0;
  for (const mention of text.matchAll(brandNamePattern(request.previousCompanyName))) {
    result += edit(text.slice(last, mention.index)) + request.companyName;
    last = mention.index + mention[0].length;
  }
  return result + edit(text.slice(last));
}

/**
 * The rephraser used when no AI endpoint is configured: deterministic, it names the new brand wherever
 * the old one was named and varies the phrasing from the curated PHRASE_BANK, choosing among the
 * alternatives by the new company name. SEO keywords only get the new brand: they are search terms.
 */
export function rephraseOffline(request: RephraseRequest): Wordings {
  return mapTexts(request.wordings, (text, path) => {
    const seed = `${request.companyName.trim().toLowerCase()}|${path.join(".")}`;
    return rewrite(text, request, seed, path[1] !== "keywords");
  });
}

export const offlineRephraser: Rephraser = {
  provider: "offline",
  rephrase: async (request) => rephraseOffline(request),
};
