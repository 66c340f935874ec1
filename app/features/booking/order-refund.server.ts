import { and, desc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { customers, orders, payments } from "~/db/schema";
import type { PaymentGateway } from "~/features/payments/gateway";
import type { RefundInput } from "~/features/payments/refund";
import { issueRefund, type Refundable, type RefundOutcome } from "~/features/payments/refunds.server";
import type { Actor } from "~/lib/actor";
import { siteOrigin } from "~/lib/site-origin.server";
import { manageMembershipLink } from "~/features/auth/sign-in-link.server";
import { isUuid } from "~/lib/uuid";
import { wasCharged } from "./order-status";
import { changeOrderStatus } from "./order-status.server";

/** Refunds of an order: its last successful charge, and 'refunded' once all of it is given back. */
export const orderRefunds: Refundable<{ orderId: string }> = {
  async lock(tx, { orderId }) {
    const [order] = await tx
      .select({
        status: orders.status,
        amount: orders.amount,
        currency: orders.currency,
        orderNumber: orders.orderNumber,
        email: customers.email,
      })
      .from(orders)
      .innerJoin(customers, eq(customers.id, orders.customerId))
      .where(eq(orders.id, orderId))
      .for("update", { of: orders });
    if (!order) return null;
    const [charge] = await tx
      .select({ providerRef: payments.providerRef, brand: payments.brand, last4: payments.last4 })
      .from(payments)
      .where(and(eq(payments.orderId, orderId), eq(payments.outcome, "succeeded")))
      .orderBy(desc(payments.createdAt))
      .limit(1);
    return {
      chargeRef: wasCharged(order.status) ? (charge?.providerRef ?? null) : null,
      paid: order.amount,
      currency: order.currency,
      notify:
        order.email && charge
          ? {
              to: order.email,
              paidFor: `Fast Track order ${order.orderNumber}`,
              cardBrand: charge.brand,
              cardLast4: charge.last4,
              account: { label: "See your bookings", href: manageMembershipLink(siteOrigin(), order.email) },
            }
          : null,
    };
  },
  async fullyRefunded(tx, { orderId }, { actor, reason }) {
    await changeOrderStatus(tx, { orderId, to: "refunded", actor, note: reason });
  },
};

/**
 * Refunds all or part of a paid order through the gateway: never more than was paid and not yet
 * refunded. A full refund makes the order 'refunded' (its history says who, when and why); a
 * partial one leaves it paid. The customer is told by e-mail.
 */
export async function refundOrder(
  db: Database,
  gateway: PaymentGateway,
  { orderId, refund, actor }: { orderId: string; refund: RefundInput; actor: Actor },
): Promise<RefundOutcome | { kind: "not-found" }> {
  if (!isUuid(orderId)) return { kind: "not-found" };
  const outcome = await issueRefund(db, gateway, orderRefunds, {
    target: { orderId },
    ...refund,
    fullConfirmed: refund.confirmed,
    actor,
  });
  return outcome ?? { kind: "not-found" };
}
