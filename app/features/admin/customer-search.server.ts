import { or, sql, type SQL } from "drizzle-orm";
import { customers } from "~/db/schema";

/** `%term%` for LIKE, with the term's own `%`, `_` and `\` matched literally (backslash is LIKE's default escape). */
function containing(term: string) {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * Customers with `term` anywhere in their name or e-mail: both have a trigram index, so any part is
 * found fast. An e-mail address holds no white space, so a term that does (a full name) is looked
 * for in names alone: the e-mail index would still offer every address with the same words.
 */
export function customerNameOrEmailContains(term: string): SQL {
  const pattern = containing(term);
  const inName = sql`lower(${customers.fullName}) like ${pattern}`;
  return /\s/.test(term) ? inName : or(inName, sql`${customers.email} like ${pattern}`)!;
}
