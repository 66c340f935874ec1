import { asc, desc, eq, sql } from "drizzle-orm";
import { z } from "~/lib/zod";
import type { Database } from "~/db/client.server";
import { customers, orderEvents, orders, payments } from "~/db/schema";
import { wasCharged } from "~/features/booking/order-status";
import { listRefunds } from "~/features/payments/refunds.server";

/** Whether `value` can be an order's id: anything else is no order, without asking the database. */
export function isOrderId(value: string): boolean {
  return z.uuid().safeParse(value).success;
}

/** An order with everything the back office shows about it, or null when there is no such order. */
export async function findOrderDetails(db: Database, orderId: string) {
  if (!isOrderId(orderId)) return null;
  const [found] = await db
    .select({ order: orders, customer: customers })
    .from(orders)
    .innerJoin(customers, eq(customers.id, orders.customerId))
    .where(eq(orders.id, orderId));
  if (!found) return null;
  const [orderPayments, history, refundRows] = await Promise.all([
    db
      .select({
        id: payments.id,
        brand: payments.brand,
        last4: payments.last4,
        provider: payments.provider,
        providerRef: payments.providerRef,
        outcome: payments.outcome,
        amount: payments.amount,
        currency: payments.currency,
        createdAt: payments.createdAt,
      })
      .from(payments)
      .where(eq(payments.orderId, orderId))
      .orderBy(asc(payments.createdAt)),
    db
      .select({
        id: orderEvents.id,
        fromStatus: orderEvents.fromStatus,
        toStatus: orderEvents.toStatus,
        actorLabel: orderEvents.actorLabel,
        note: orderEvents.note,
        createdAt: orderEvents.createdAt,
      })
      .from(orderEvents)
      .where(eq(orderEvents.orderId, orderId))
      // Newest first: the latest change is what an admin looks for. Events written in one transaction
      // share its timestamp; the creation, if among them, is then still the oldest.
      .orderBy(desc(orderEvents.createdAt), sql`${orderEvents.fromStatus} is null`),
    listRefunds(db, { orderId }),
  ]);
  const { order } = found;
  // All of an order's refunds are in its currency.
  const refunded = refundRows.reduce((total, refund) => total + refund.amount, 0);
  const charged = wasCharged(order.status) && orderPayments.some((payment) => payment.outcome === "succeeded");
  return {
    order,
    customer: found.customer,
    payments: orderPayments,
    history,
    refunds: { rows: refundRows, refunded, charged, refundable: charged ? order.amount - refunded : 0 },
  };
}

export type OrderDetails = NonNullable<Awaited<ReturnType<typeof findOrderDetails>>>;
