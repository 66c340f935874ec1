import { asc, desc, eq, or, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { customers, memberships, orders, payments } from "~/db/schema";
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
  const [orderPayments, history, refundRows, membership] = await Promise.all([
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
    membershipOfOrder(db, orderId, found.customer.email),
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
    membership,
  };
}

/**
 * The membership the order started, or else the one its customer's address holds (a member's booking):
 * with `started` telling them apart. Null when there is neither.
 */
async function membershipOfOrder(db: Database, orderId: string, email: string | null) {
  const [membership] = await db
    .select({
      id: memberships.id,
      plan: memberships.plan,
      status: memberships.status,
      started: sql<boolean>`${memberships.orderId} is not distinct from ${orderId}::uuid`,
    })
    .from(memberships)
    .where(
      email
        ? or(eq(memberships.orderId, orderId), eq(memberships.email, email.toLowerCase()))
        : eq(memberships.orderId, orderId),
    )
    .orderBy(desc(sql`${memberships.orderId} is not distinct from ${orderId}::uuid`))
    .limit(1);
  return membership ?? null;
}

export type BackOfficeOrder = NonNullable<Awaited<ReturnType<typeof findOrderDetails>>>;
