import type { CurrencyCode } from "~/lib/currency";
import type { PlanId, SiteConfig } from "~/features/site-config/types";
import { isOneOf } from "~/lib/one-of";
import { siteConfig } from "../../../site.config";

/** The partner sites a free trial starts on, as the pre-checkout tabs name them in `?tab=`. */
export const TRIAL_SITES = ["fast-track", "checkin"] as const;
export type TrialSite = (typeof TRIAL_SITES)[number];

/** The pre-checkout tab a `?tab=` query value asks for; fast track unless it names the check-in site. */
export function parseTrialSite(value: string | null | undefined): TrialSite {
  return isOneOf(TRIAL_SITES, value) ? value : "fast-track";
}

const SITE_DOMAIN: Record<TrialSite, "fastTrack" | "checkIn"> = {
  "fast-track": "fastTrack",
  checkin: "checkIn",
};

export function trialSiteDomain(site: TrialSite, config: Pick<SiteConfig, "domains"> = siteConfig): string {
  return config.domains[SITE_DOMAIN[site]];
}

/**
 * Where 'Start Free Trial' sends the visitor: the partner site's root with the chosen `currency`
 * and, for a plan that has a product code (medium: `_3m_49`), that code as `product`.
 */
export function trialUrl(
  { site, planId, currency }: { site: TrialSite; planId: PlanId; currency: CurrencyCode },
  config: Pick<SiteConfig, "domains" | "pricing"> = siteConfig,
): string {
  const url = new URL(`https://${trialSiteDomain(site, config)}/`);
  url.searchParams.set("currency", currency);
  const { productCode } = config.pricing[planId];
  if (productCode) url.searchParams.set("product", productCode);
  return url.toString();
}
