import { and, desc, eq, gt, ilike, or, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { orders, withdrawalOverflow, withdrawals } from "~/db/schema";
import { withdrawalColumns } from "~/features/withdrawal/withdrawals-admin.server";
import { keysetPaging, type KeysetPage, type PagePosition } from "../keyset.server";
import type { WithdrawalFilters } from "./withdrawal-filters";

export const WITHDRAWALS_PAGE_SIZE = 25;

/** How far back the page shows the hours whose unmatched statements went over the cap. */
const OVERFLOW_SHOWN_DAYS = 7;

/** `text` for a LIKE pattern: its own % and _ match themselves. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

function filterConditions({ outcome, search }: WithdrawalFilters): SQL[] {
  const conditions: SQL[] = [];
  if (outcome) conditions.push(eq(withdrawals.outcome, outcome));
  if (search) {
    const pattern = `%${likeLiteral(search)}%`;
    conditions.push(
      or(
        ilike(withdrawals.name, pattern),
        ilike(withdrawals.email, pattern),
        ilike(withdrawals.contractNumber, pattern),
      )!,
    );
  }
  return conditions;
}

/**
 * One page of withdrawal statements, newest first, among those matching `filters`, with the matched
 * order's number: keyset pagination on (received_at, id), with the indexes on (received_at, id) and
 * (outcome, received_at, id).
 */
export async function listWithdrawals(
  db: Database,
  position: PagePosition,
  filters: WithdrawalFilters,
  pageSize = WITHDRAWALS_PAGE_SIZE,
) {
  const paging = keysetPaging({ createdAt: withdrawals.receivedAt, id: withdrawals.id }, position, pageSize);
  const fetched = await db
    .select({
      ...withdrawalColumns,
      orderNumber: orders.orderNumber,
      cursor: paging.cursor,
    })
    .from(withdrawals)
    .leftJoin(orders, eq(orders.id, withdrawals.orderId))
    .where(and(...filterConditions(filters), paging.where))
    .orderBy(...paging.orderBy)
    .limit(paging.limit);
  return paging.page(fetched);
}

export type WithdrawalsPage = KeysetPage<Awaited<ReturnType<typeof listWithdrawals>>["rows"][number]>;

/** The hours of the last week when unmatched statements went over the cap, and how many were not kept. */
export function recentOverflow(db: Database, now: Date) {
  return db
    .select()
    .from(withdrawalOverflow)
    .where(gt(withdrawalOverflow.hour, new Date(now.getTime() - OVERFLOW_SHOWN_DAYS * 86_400_000)))
    .orderBy(desc(withdrawalOverflow.hour));
}
