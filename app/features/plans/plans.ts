import type { Plan, PlanId, SiteConfig } from "~/features/site-config/types";
import { isOneOf } from "~/lib/one-of";
import { siteConfig } from "../../../site.config";

/** The order plans are shown in, cheapest first. */
export const PLAN_IDS = ["medium", "premium"] as const satisfies readonly PlanId[];

export const DEFAULT_PLAN_ID: PlanId = "premium";

/** The plan a `?plan=` query value asks for: medium or premium, anything else is the default (premium). */
export function parsePlanId(value: string | null | undefined): PlanId {
  return isOneOf(PLAN_IDS, value) ? value : DEFAULT_PLAN_ID;
}

/**
 * The plan a trial link asks for: `?plan=`, or else the plan whose product code `?product=` carries
 * (the partner sites' parameter), or else the default.
 */
export function chosenPlan(
  plan: string | null,
  product: string | null,
  pricing: SiteConfig["pricing"] = siteConfig.pricing,
): PlanId {
  if (isOneOf(PLAN_IDS, plan)) return plan;
  return PLAN_IDS.find((id) => product !== null && pricing[id].productCode === product) ?? DEFAULT_PLAN_ID;
}

export function plansInOrder(pricing: SiteConfig["pricing"] = siteConfig.pricing): Plan[] {
  return PLAN_IDS.map((id) => pricing[id]);
}

/** The entry price a membership is advertised with ("from 49 per quarter"). */
export function lowestPlanPrice(pricing: SiteConfig["pricing"] = siteConfig.pricing): number {
  return Math.min(...plansInOrder(pricing).map((plan) => plan.price));
}

export function preCheckoutHref(planId: PlanId): string {
  return `/pre-checkout?plan=${planId}`;
}
