import { z } from "~/lib/zod";
import { MEMBERSHIP_PLANS, MEMBERSHIP_STATUSES, type MembershipPlan, type MembershipStatus } from "~/db/schema";
import { filterValues, optional, parseFilters, searchFilter, type FilterErrors } from "../list-filters";

// The query string of /admin/memberships.

export interface MembershipFilters {
  status: MembershipStatus | null;
  plan: MembershipPlan | null;
  /** Part of the member's name or e-mail, lower-cased. */
  search: string | null;
}

export const NO_MEMBERSHIP_FILTERS: MembershipFilters = { status: null, plan: null, search: null };

const filtersSchema = z.object({
  status: optional(z.enum(MEMBERSHIP_STATUSES, { error: "Statut inconnu : choisissez-en un dans la liste." })),
  plan: optional(z.enum(MEMBERSHIP_PLANS, { error: "Formule inconnue : choisissez-en une dans la liste." })),
  q: searchFilter("du nom ou de l'adresse e-mail"),
});

export const MEMBERSHIP_FILTER_FIELDS = ["status", "plan", "q"] as const;
export type MembershipFilterField = (typeof MEMBERSHIP_FILTER_FIELDS)[number];
export type MembershipFilterErrors = FilterErrors<MembershipFilterField>;

export type MembershipFiltersResult =
  { success: true; filters: MembershipFilters } | { success: false; errors: MembershipFilterErrors };

/** The filters asked for by a query string, or the French messages saying what is wrong with it. */
export function parseMembershipFilters(params: URLSearchParams): MembershipFiltersResult {
  const parsed = parseFilters(filtersSchema, MEMBERSHIP_FILTER_FIELDS, params);
  if (!parsed.success) return parsed;
  const { status, plan, q } = parsed.data;
  return {
    success: true,
    filters: { status: status ?? null, plan: plan ?? null, search: q ? q.toLowerCase() : null },
  };
}

/** The membership filters as typed, to fill the form in again and carry into the pagination links. */
export function membershipFilterValues(params: URLSearchParams): Record<MembershipFilterField, string> {
  return filterValues(MEMBERSHIP_FILTER_FIELDS, params);
}
