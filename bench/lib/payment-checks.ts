import { and, count, eq, gt, inArray, like } from "drizzle-orm";
import { customers, orders, outbox, payments, providerEvents } from "~/db/schema";
import { isPaidStatus } from "~/features/booking/order-status";
import { openServerDatabase, type BenchServer } from "./server";

/** How the acknowledged payments stand in the database, each counted once. */
export interface PaymentCheck {
  acknowledged: number;
  /** Orders with exactly one payment row, paid, whose confirmation mail was queued exactly once. */
  exactlyOnce: number;
  /** Orders (acknowledged or not) with more than one payment row, or more than one confirmation mail. */
  doubled: number;
  /** Event ids given that have their provider_events row. */
  eventsRecorded: number;
}

/** The subject of the booking's confirmation mail (app/features/booking/confirmation-mail.tsx). */
const CONFIRMATION_SUBJECT = "Your Fast Track booking % is confirmed";
const CHUNK = 1000;
const chunks = <T>(items: T[]) =>
  Array.from({ length: Math.ceil(items.length / CHUNK) }, (_, index) =>
    items.slice(index * CHUNK, (index + 1) * CHUNK),
  );

/**
 * Checks `orderIds`, whose payments the site acknowledged, in the server's database (a PGlite
 * server must have stopped first): each has one payment row, is paid, and its confirmation mail
 * (its address is its own, bench/lib/booking-load.ts) is in the outbox once. `eventIds` are the
 * provider events it was sent, each of which must have its row.
 */
export async function checkPayments(
  server: BenchServer,
  orderIds: string[],
  eventIds: string[] = [],
): Promise<PaymentCheck> {
  const handle = await openServerDatabase(server);
  try {
    const { db } = handle;
    let exactlyOnce = 0;
    for (const chunk of chunks([...new Set(orderIds)])) {
      const rows = await db
        .select({ id: orders.id, status: orders.status, email: customers.email })
        .from(orders)
        .innerJoin(customers, eq(customers.id, orders.customerId))
        .where(inArray(orders.id, chunk));
      const paymentRows = await db
        .select({ orderId: payments.orderId, rows: count() })
        .from(payments)
        .where(inArray(payments.orderId, chunk))
        .groupBy(payments.orderId);
      const emails = rows.flatMap((row) => (row.email ? [row.email] : []));
      const mails = await db
        .select({ to: outbox.to, rows: count() })
        .from(outbox)
        .where(and(inArray(outbox.to, emails), like(outbox.subject, CONFIRMATION_SUBJECT)))
        .groupBy(outbox.to);
      const paymentsOf = new Map(paymentRows.map((row) => [row.orderId, row.rows]));
      const mailsTo = new Map(mails.map((row) => [row.to, row.rows]));
      exactlyOnce += rows.filter(
        (row) => isPaidStatus(row.status) && paymentsOf.get(row.id) === 1 && row.email && mailsTo.get(row.email) === 1,
      ).length;
    }
    const doubledPayments = await db
      .select({ orderId: payments.orderId })
      .from(payments)
      .groupBy(payments.orderId)
      .having(gt(count(), 1));
    const doubledMails = await db
      .select({ to: outbox.to })
      .from(outbox)
      .where(like(outbox.subject, CONFIRMATION_SUBJECT))
      .groupBy(outbox.to)
      .having(gt(count(), 1));
    let eventsRecorded = 0;
    for (const chunk of chunks(eventIds)) {
      const [found] = await db.select({ rows: count() }).from(providerEvents).where(inArray(providerEvents.id, chunk));
      eventsRecorded += found?.rows ?? 0;
    }
    return {
      acknowledged: new Set(orderIds).size,
      exactlyOnce,
      doubled: doubledPayments.length + doubledMails.length,
      eventsRecorded,
    };
  } finally {
    await handle.close();
  }
}
