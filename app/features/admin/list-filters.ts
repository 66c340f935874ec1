import { z } from "~/lib/zod";
import { MAX_SEARCH_LENGTH, MIN_SEARCH_LENGTH } from "./customer-search";

// The query strings of the back office's filtered lists (orders, memberships): a GET form whose
// fields are the filters, read back with a zod schema that says in French what is wrong.

/** An empty field of a filter form is the same as no field. */
export const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === "" || value === null ? undefined : value), schema.optional());

/** A list's search field: empty, or `MIN_SEARCH_LENGTH` to `MAX_SEARCH_LENGTH` characters of `what` ("du nom ou de l'adresse e-mail"). */
export const searchFilter = (what: string) =>
  optional(
    z
      .string()
      .trim()
      .max(MAX_SEARCH_LENGTH, `La recherche ne peut pas dépasser ${MAX_SEARCH_LENGTH} caractères.`)
      .refine(
        (text) => text === "" || text.length >= MIN_SEARCH_LENGTH,
        `Saisissez au moins ${MIN_SEARCH_LENGTH} caractères ${what}.`,
      ),
  );

/** The first French message for each field a filter schema refused. */
export type FilterErrors<Field extends string> = Partial<Record<Field, string>>;

export type FilterParse<Field extends string, Output> =
  { success: true; data: Output } | { success: false; errors: FilterErrors<Field> };

/** The filters as typed (no cursor), to fill the form in again and carry into the pagination and export links. */
export function filterValues<Field extends string>(
  fields: readonly Field[],
  params: URLSearchParams,
): Record<Field, string> {
  return Object.fromEntries(fields.map((name) => [name, params.get(name) ?? ""])) as Record<Field, string>;
}

/** The query string `fields` are read from, parsed by `schema`, or the first message for each field it refused. */
export function parseFilters<Field extends string, Output>(
  schema: z.ZodType<Output>,
  fields: readonly Field[],
  params: URLSearchParams,
): FilterParse<Field, Output> {
  const parsed = schema.safeParse(filterValues(fields, params));
  if (parsed.success) return { success: true, data: parsed.data };
  const errors: FilterErrors<Field> = {};
  for (const issue of parsed.error.issues) errors[issue.path[0] as Field] ??= issue.message;
  return { success: false, errors };
}

/** The query string of the filters that are set, "" for none. */
export function filtersQuery(values: Record<string, string>): string {
  return new URLSearchParams(Object.entries(values).filter(([, value]) => value !== "")).toString();
}

/** A filter field's id and its error, if any, for the form kit's Field. */
export function filterField<Field extends string>(name: Field, errors: FilterErrors<Field>) {
  const error = errors[name];
  return { id: `filter-${name}`, errors: error ? [error] : undefined };
}
