import { z } from "~/lib/zod";

export const MIN_SEARCH_LENGTH = 3;
export const MAX_SEARCH_LENGTH = 100;

export interface CustomerSearch {
  /** What the admin typed, as shown back in the search field. */
  query: string;
  /** What the list is filtered on, lower-cased; null when it is not filtered. */
  term: string | null;
  /** Why what was typed does not filter the list, when it does not. */
  notice: string | null;
}

const querySchema = z
  .string()
  .trim()
  .min(
    MIN_SEARCH_LENGTH,
    `Saisissez au moins ${MIN_SEARCH_LENGTH} caractères pour rechercher : tous les clients sont affichés.`,
  )
  .max(
    MAX_SEARCH_LENGTH,
    `La recherche est limitée à ${MAX_SEARCH_LENGTH} caractères : tous les clients sont affichés.`,
  );

/** The search asked for by `?q=`: part of a name or an e-mail address, at least three characters. */
export function customerSearchFromParams(params: URLSearchParams): CustomerSearch {
  const query = params.get("q")?.trim() ?? "";
  if (query === "") return { query, term: null, notice: null };
  const parsed = querySchema.safeParse(query);
  return parsed.success
    ? { query, term: parsed.data.toLowerCase(), notice: null }
    : { query, term: null, notice: parsed.error.issues[0]!.message };
}
