import { or, sql, type SQL } from "drizzle-orm";
import { customers } from "~/db/schema";

/** `%term%` for LIKE, with the term's own `%`, `_` and `\` matched literally (backslash is LIKE's default escape). */
function containing(term: string) {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** Customers with `term` anywhere in their name or e-mail: both have a trigram index, so any part is found fast. */
export function customerNameOrEmailContains(term: string): SQL {
  const pattern = containing(term);
  return or(sql`lower(${customers.companyName}) like ${pattern}`, sql`${customers.email} like ${pattern}`)!;
}
