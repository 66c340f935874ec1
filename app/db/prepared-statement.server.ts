import { createHash } from "node:crypto";
import type { SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { DRIZZLE_CASING, type Database } from "./client.server";

const dialect = new PgDialect({ casing: DRIZZLE_CASING });

/**
 * A raw statement whose values are `sql.placeholder`s, built into SQL once and prepared under `name`
 * on each database it runs on, so that PostgreSQL parses and plans it once per connection. Drizzle's
 * query builders have `.prepare()`; its raw `execute` has not, so this goes through the same
 * session call that `execute` makes, with a name. Behind a transaction-mode pooler the name is
 * dropped on the way out (ADR 022), so the statement must not rely on it.
 */
export function preparedStatement<Row>(name: string, statement: SQL) {
  const query = dialect.sqlToQuery(statement);
  const prepared = onEachDatabase((db) => db._.session.prepareQuery(query, undefined, name, false));
  return async function execute(db: Database, values: Record<string, unknown>): Promise<Row[]> {
    const result = (await prepared(db).execute(values)) as { rows: Row[] };
    return result.rows;
  };
}

/** `build(db)`, made once per database handle and kept: a prepared query belongs to one handle. */
export function onEachDatabase<T>(build: (db: Database) => T): (db: Database) => T {
  const made = new WeakMap<Database, T>();
  return (db) => {
    let value = made.get(db);
    if (value === undefined) made.set(db, (value = build(db)));
    return value;
  };
}

/**
 * Runs a statement built per call (its values are parameters, so its text has few shapes) prepared
 * under a name made from its text: PostgreSQL parses and plans each shape once per connection
 * instead of at every call. Only for statements whose text cannot grow without bound.
 */
export async function executePrepared<Row>(db: Database, statement: SQL): Promise<Row[]> {
  const query = dialect.sqlToQuery(statement);
  const name = `text_${createHash("sha256").update(query.sql).digest("base64url").slice(0, 32)}`;
  const result = (await db._.session.prepareQuery(query, undefined, name, false).execute()) as { rows: Row[] };
  return result.rows;
}
