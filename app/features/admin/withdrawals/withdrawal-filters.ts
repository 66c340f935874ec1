import { z } from "~/lib/zod";
import { WITHDRAWAL_OUTCOMES, type WithdrawalOutcome } from "~/db/schema";
import { filterValues, optional, parseFilters, searchFilter, type FilterErrors } from "../list-filters";

// The query string of /admin/withdrawals.

export interface WithdrawalFilters {
  outcome: WithdrawalOutcome | null;
  /** Part of the name, address or contract number as typed, lower-cased. */
  search: string | null;
}

const filtersSchema = z.object({
  outcome: optional(z.enum(WITHDRAWAL_OUTCOMES, { error: "Résultat inconnu : choisissez-en un dans la liste." })),
  q: searchFilter("du nom, de l'e-mail ou du numéro"),
});

export const WITHDRAWAL_FILTER_FIELDS = ["outcome", "q"] as const;
export type WithdrawalFilterField = (typeof WITHDRAWAL_FILTER_FIELDS)[number];
export type WithdrawalFilterErrors = FilterErrors<WithdrawalFilterField>;

/** The filters asked for by a query string, or the French messages saying what is wrong with it. */
export function parseWithdrawalFilters(
  params: URLSearchParams,
): { success: true; filters: WithdrawalFilters } | { success: false; errors: WithdrawalFilterErrors } {
  const parsed = parseFilters(filtersSchema, WITHDRAWAL_FILTER_FIELDS, params);
  if (!parsed.success) return parsed;
  const { outcome, q } = parsed.data;
  return { success: true, filters: { outcome: outcome ?? null, search: q ? q.toLowerCase() : null } };
}

/** The filters as typed, to fill the form in again and carry into the pagination links. */
export function withdrawalFilterValues(params: URLSearchParams): Record<WithdrawalFilterField, string> {
  return filterValues(WITHDRAWAL_FILTER_FIELDS, params);
}
