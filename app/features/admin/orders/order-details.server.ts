import { asc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { customers, orders, payments } from "~/db/schema";
import { orderHistory } from "~/db/status-history.server";
import { wasCharged } from "~/features/booking/order-status";
import { listRefunds } from "~/features/payments/refunds.server";
import { isUuid } from "~/lib/uuid";

/** An order with everything the back office shows about it, or null when there is no such order. */
export async function findOrderDetails(db: Database, orderId: string) {
  if (!isUuid(orderId)) return null;
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
    orderHistory(db, orderId),
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

export type BackOfficeOrder = NonNullable<Awaited<ReturnType<typeof findOrderDetails>>>;
