import { and, eq, gte, isNull, lte, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { membershipDays } from "~/db/schema";
import { periodBuckets } from "./statistics-buckets";
import type { StatisticsPeriod } from "./statistics-period";

// The memberships over a period, counted by the database from the daily figures the triggers of
// migration 0012 keep (`membership_days`, ADR 017): how many changes of each kind each day.

export interface MembershipCounts {
  /** Trials that began (a membership's first status). */
  trialsStarted: number;
  /** Trials whose first fee was paid: trialing to active. */
  converted: number;
  /** Memberships that ended by cancellation: the member's at the period's end, or an admin's at once. */
  cancelled: number;
  /** Memberships that ended because a fee stayed unpaid after the reminder. */
  endedUnpaid: number;
}

export interface MembershipStatistics {
  totals: MembershipCounts;
  /** Every bucket of the period, in order, those without changes at zero. */
  buckets: (MembershipCounts & { start: string })[];
}

/** The changes of each kind, from their from and to statuses. */
export const CHANGE_KINDS: Record<keyof MembershipCounts, SQL> = {
  trialsStarted: and(isNull(membershipDays.fromStatus), eq(membershipDays.toStatus, "trialing"))!,
  converted: and(eq(membershipDays.fromStatus, "trialing"), eq(membershipDays.toStatus, "active"))!,
  cancelled: eq(membershipDays.toStatus, "cancelled"),
  endedUnpaid: eq(membershipDays.toStatus, "ended"),
};

/** The changes of a kind among a group's daily figures. */
export const changesOf = (kind: SQL) => sql`coalesce(sum(${membershipDays.events}) filter (where ${kind}), 0)`;

const countsOf = (row: MembershipCounts | undefined): MembershipCounts => ({
  trialsStarted: row?.trialsStarted ?? 0,
  converted: row?.converted ?? 0,
  cancelled: row?.cancelled ?? 0,
  endedUnpaid: row?.endedUnpaid ?? 0,
});

/**
 * The counts of each bucket, then the whole period's. The daily figures are first summed per bucket
 * (a plain GROUP BY), and only those few rows go through the grouping sets. A period reads a few
 * dozen rows a day, however many memberships there are.
 */
export async function membershipStatistics(db: Database, period: StatisticsPeriod): Promise<MembershipStatistics> {
  const bucketChanges = db.$with("bucket_changes").as(
    db
      .select({
        bucket:
          sql<string>`to_char(date_trunc(${period.granularity}, ${membershipDays.day}::timestamp), 'YYYY-MM-DD')`.as(
            "bucket",
          ),
        trialsStarted: changesOf(CHANGE_KINDS.trialsStarted).as("trials_started"),
        converted: changesOf(CHANGE_KINDS.converted).as("converted"),
        cancelled: changesOf(CHANGE_KINDS.cancelled).as("cancelled"),
        endedUnpaid: changesOf(CHANGE_KINDS.endedUnpaid).as("ended_unpaid"),
      })
      .from(membershipDays)
      .where(and(gte(membershipDays.day, period.from), lte(membershipDays.day, period.to)))
      .groupBy(sql`bucket`),
  );
  const summed = (column: SQL.Aliased) => sql`sum(${column})`.mapWith(Number);
  const rows = await db
    .with(bucketChanges)
    .select({
      bucket: sql<string | null>`${bucketChanges.bucket}`,
      trialsStarted: summed(bucketChanges.trialsStarted),
      converted: summed(bucketChanges.converted),
      cancelled: summed(bucketChanges.cancelled),
      endedUnpaid: summed(bucketChanges.endedUnpaid),
    })
    .from(bucketChanges)
    .groupBy(sql`grouping sets ((${bucketChanges.bucket}), ())`);
  return {
    totals: countsOf(rows.find((row) => row.bucket === null)),
    buckets: periodBuckets(period).map((start) => ({
      start,
      ...countsOf(rows.find((row) => row.bucket === start)),
    })),
  };
}
