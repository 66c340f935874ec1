import { or, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
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

/**
 * Rows whose `customerId` is a customer with `term` in their name or e-mail: the customers are found
 * first, through the trigram indexes, then their rows by the index on `customerId`.
 */
export function ofCustomersMatching(customerId: PgColumn, term: string): SQL {
  return sql`${customerId} in (select ${customers.id} from ${customers} where ${customerNameOrEmailContains(term)})`;
}
