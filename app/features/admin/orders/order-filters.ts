import { z } from "~/lib/zod";
import { ORDER_STATUSES, type OrderStatus } from "~/db/schema";
import { MIN_SEARCH_LENGTH } from "../customer-search";
import {
  filterValues as valuesOf,
  optional,
  parseFilters,
  type FilterErrors as ListFilterErrors,
} from "../list-filters";

// The query string of /admin/orders and of its CSV export: the same filters for both.

/** What the search box finds: one order by its number, or the orders of customers whose name or e-mail contains the text. */
export type OrderSearch = { orderNumber: string } | { text: string };

export interface OrderFilters {
  status: OrderStatus | null;
  /** First and last day included ("YYYY-MM-DD", days in Amsterdam). */
  from: string | null;
  to: string | null;
  search: OrderSearch | null;
}

export const NO_ORDER_FILTERS: OrderFilters = { status: null, from: null, to: null, search: null };

const MAX_SEARCH_LENGTH = 200;
const ORDER_NUMBER_PATTERN = /^FT-\d+-[A-Z0-9]+$/i;

const day = (message: string) => z.iso.date({ error: message });

const filtersSchema = z
  .object({
    status: optional(z.enum(ORDER_STATUSES, { error: "Statut inconnu : choisissez-en un dans la liste." })),
    from: optional(day("Date de début invalide : utilisez le format AAAA-MM-JJ.")),
    to: optional(day("Date de fin invalide : utilisez le format AAAA-MM-JJ.")),
    q: optional(
      z
        .string()
        .trim()
        .max(MAX_SEARCH_LENGTH, `La recherche ne peut pas dépasser ${MAX_SEARCH_LENGTH} caractères.`)
        .refine(
          (text) => text === "" || ORDER_NUMBER_PATTERN.test(text) || text.length >= MIN_SEARCH_LENGTH,
          `Saisissez au moins ${MIN_SEARCH_LENGTH} caractères pour chercher un nom ou une adresse e-mail, ou un numéro de commande complet (FT-…).`,
        ),
    ),
  })
  .refine(({ from, to }) => !from || !to || from <= to, {
    message: "La date de début doit précéder la date de fin.",
    path: ["to"],
  });

export const FILTER_FIELDS = ["status", "from", "to", "q"] as const;
export type FilterField = (typeof FILTER_FIELDS)[number];
export type FilterErrors = ListFilterErrors<FilterField>;

export type OrderFiltersResult = { success: true; filters: OrderFilters } | { success: false; errors: FilterErrors };

/** The filters asked for by a query string, or the French messages saying what is wrong with it. */
export function parseOrderFilters(params: URLSearchParams): OrderFiltersResult {
  const parsed = parseFilters(filtersSchema, FILTER_FIELDS, params);
  if (!parsed.success) return parsed;
  const { status, from, to, q } = parsed.data;
  return {
    success: true,
    filters: { status: status ?? null, from: from ?? null, to: to ?? null, search: searchOf(q ?? "") },
  };
}

function searchOf(text: string): OrderSearch | null {
  if (text === "") return null;
  if (ORDER_NUMBER_PATTERN.test(text)) return { orderNumber: text.toUpperCase() };
  return { text: text.toLowerCase() };
}

/** The order filters as typed, to fill the form in again and carry into the pagination and export links. */
export function filterValues(params: URLSearchParams): Record<FilterField, string> {
  return valuesOf(FILTER_FIELDS, params);
}
