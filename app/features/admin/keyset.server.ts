import { asc, desc, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";

// Keyset pagination on (created_at, id), newest first, for the back office's long lists: each page
// costs the same however deep it is, with a million rows or more, where OFFSET would read them all.

/** Where a page starts: after a cursor (older rows), before one (newer), or at the newest row. */
export type PagePosition = { after: string } | { before: string } | null;

export interface KeysetPage<Row> {
  rows: Row[];
  /** Cursors for the pages after (older) and before (newer) this one; null at either end. */
  next: string | null;
  previous: string | null;
}

interface Cursor {
  /** created_at to the microsecond, as PostgreSQL writes it: a JavaScript Date would lose precision. */
  createdAt: string;
  id: string;
}

const CURSOR_PATTERN =
  /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

function parseCursor(value: string): Cursor | null {
  const match = CURSOR_PATTERN.exec(value);
  return match ? { createdAt: match[1]!, id: match[2]! } : null;
}

/** The position asked for by the page's query string (`?after=` or `?before=`); anything unreadable means the first page. */
export function pagePositionFromSearch(params: URLSearchParams): PagePosition {
  const after = params.get("after");
  if (after && parseCursor(after)) return { after };
  const before = params.get("before");
  if (before && parseCursor(before)) return { before };
  return null;
}

function comparedWith({ createdAt, id }: KeysetColumns, cursor: Cursor, operator: "<" | ">"): SQL {
  const cursorCreatedAt = sql`${cursor.createdAt}::timestamptz`;
  return sql`${createdAt} ${sql.raw(operator)}= ${cursorCreatedAt} and (${createdAt}, ${id}) ${sql.raw(operator)} (${cursorCreatedAt}, ${cursor.id}::uuid)`;
}

/** The columns a table is paged on: a timestamptz and a uuid. */
export interface KeysetColumns {
  createdAt: PgColumn;
  id: PgColumn;
}

/**
 * The parts of a query for one page at `position`: select `cursor` beside the row's columns, add
 * `where` to the conditions, order by `orderBy`, fetch `limit` rows, and hand them to `page`.
 */
export function keysetPaging(columns: KeysetColumns, position: PagePosition, pageSize: number) {
  const cursorText = position === null ? null : "after" in position ? position.after : position.before;
  const cursor = cursorText ? parseCursor(cursorText) : null;
  const backwards = cursor !== null && position !== null && "before" in position;
  const { createdAt, id } = columns;

  return {
    cursor: sql<string>`to_char(${createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '_' || ${id}`,
    // created_at then id, so that rows created in the same microsecond still have one order. The
    // plain bound on created_at is implied by the row comparison, but only it can narrow an index
    // scan on (status, created_at) when a list is filtered by status.
    where: cursor ? comparedWith(columns, cursor, backwards ? ">" : "<") : undefined,
    orderBy: backwards ? [asc(createdAt), asc(id)] : [desc(createdAt), desc(id)],
    limit: pageSize + 1,
    /** The page from the `limit` rows fetched: at most `pageSize`, newest first, with the cursors around it. */
    page<Row extends { cursor: string }>(fetched: Row[]): KeysetPage<Omit<Row, "cursor">> {
      const more = fetched.length > pageSize;
      const page = fetched.slice(0, pageSize);
      if (backwards) page.reverse();
      return {
        rows: page.map(({ cursor: _cursor, ...row }) => row),
        next: backwards || more ? (page.at(-1)?.cursor ?? null) : null,
        previous: cursor && (!backwards || more) ? (page[0]?.cursor ?? null) : null,
      };
    },
  };
}
