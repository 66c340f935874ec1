import type { CurrencyCode } from "~/lib/currency";
import type { PlanId, SiteConfig } from "~/features/site-config/types";
import { isOneOf } from "~/lib/one-of";
import { siteConfig } from "../../../site.config";

/** The partner sites a free trial starts on, as the pre-checkout tabs name them in `?tab=`. */
export const TRIAL_SITES = ["fast-track", "checkin"] as const;
export type TrialSite = (typeof TRIAL_SITES)[number];

/** This site's own membership checkout: where a trial starts while no partner site is configured. */
export const MEMBERSHIP_CHECKOUT_PATH = "/membership-checkout";

/** The pre-checkout tab a `?tab=` query value asks for; fast track unless it names the check-in site. */
export function parseTrialSite(value: string | null | undefined): TrialSite {
  return isOneOf(TRIAL_SITES, value) ? value : "fast-track";
}

const SITE_DOMAIN: Record<TrialSite, "fastTrack" | "checkIn"> = {
  "fast-track": "fastTrack",
  checkin: "checkIn",
};

/** Names reserved for examples and tests (RFC 2606, RFC 6761): they never resolve. */
const NEVER_RESOLVES = /\.(example|test|invalid|localhost)$/i;

/**
 * The partner site a tab's trial starts on, or null while the configuration names none that
 * resolves (a fresh clone's `*.example` placeholders): then the trial starts on this site.
 */
export function trialSiteDomain(site: TrialSite, config: Pick<SiteConfig, "domains"> = siteConfig): string | null {
  const domain = config.domains[SITE_DOMAIN[site]];
  return NEVER_RESOLVES.test(domain) ? null : domain;
}

/**
 * Where 'Start Free Trial' sends the visitor: the partner site's root, or this site's membership
 * checkout when there is none, with the chosen `currency` and, for a plan that has a product code
 * (medium: `_3m_49`), that code as `product`. Our checkout also gets `plan`, since premium has no code.
 */
export function trialUrl(
  { site, planId, currency }: { site: TrialSite; planId: PlanId; currency: CurrencyCode },
  config: Pick<SiteConfig, "domains" | "pricing"> = siteConfig,
): string {
  const domain = trialSiteDomain(site, config);
  const search = new URLSearchParams();
  if (!domain) search.set("plan", planId);
  search.set("currency", currency);
  const { productCode } = config.pricing[planId];
  if (productCode) search.set("product", productCode);
  return domain ? `https://${domain}/?${search}` : `${MEMBERSHIP_CHECKOUT_PATH}?${search}`;
}
