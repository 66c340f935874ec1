import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { invoices, orders, payments, refunds, type CurrencyCode } from "~/db/schema";
import { orderRefunds } from "~/features/booking/order-refund.server";
import { invoiceRefunds } from "~/features/memberships/invoice-refund.server";
import type { Claim, Followed } from "~/features/memberships/provider-billing.server";
import type { HostedCardGateway } from "~/features/payments/gateway";
import { recordGatewayRefund } from "~/features/payments/refunds.server";
import type { Actor } from "~/lib/actor";
import { isUuid } from "~/lib/uuid";

const STRIPE_DASHBOARD: Actor = { userId: null, label: "stripe" };

/**
 * Refunds made in Stripe's dashboard, not in our back office, still enter our ledger: each of the
 * charge's refunds that no row of ours names (by Stripe's refund id) is recorded the way our own
 * refunds are (the customer is told, a full refund marks the order or invoice refunded), only
 * without asking Stripe to refund it again. One of ours whose answer was never recorded (its key in
 * the refund's metadata) is finished instead, under the admin who asked for it. The order or invoice is locked first, so that a refund
 * of ours being recorded meanwhile is seen, and counted once.
 */
export async function followRefunds(
  { db, gateway }: { db: Database; gateway: HostedCardGateway },
  chargeRef: string,
  claim: Claim,
): Promise<Followed> {
  const { paymentRef, refunds: made } = await gateway.readRefunds(chargeRef);
  if (!paymentRef) return "not-ours";
  return db.transaction(async (tx): Promise<Followed> => {
    const [order] = await tx
      .select({ id: orders.id })
      .from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .where(and(eq(payments.providerRef, paymentRef), eq(payments.outcome, "succeeded")))
      .for("update", { of: orders });
    const [invoice] = order
      ? []
      : await tx.select({ id: invoices.id }).from(invoices).where(eq(invoices.providerRef, paymentRef)).for("update");
    if (!order && !invoice) return "not-ours";
    if (!(await claim(tx))) return "duplicate";
    if (made.length === 0) return "nothing-to-do";
    const known = new Set(
      (
        await tx
          .select({ providerRef: refunds.providerRef })
          .from(refunds)
          .where(
            inArray(
              refunds.providerRef,
              made.map((refund) => refund.providerRef),
            ),
          )
      ).map((row) => row.providerRef),
    );
    let followed: Followed = "nothing-to-do";
    for (const { providerRef, amount, idempotencyKey } of made.filter((refund) => !known.has(refund.providerRef))) {
      // Stripe already gave the money back: recording it is all that is left.
      const refund = {
        providerRef,
        ours: idempotencyKey,
        amount,
        reason: "Remboursement fait dans le tableau de bord Stripe",
        idempotencyKey: `${gateway.name}:${providerRef}`,
        actor: STRIPE_DASHBOARD,
      };
      const outcome = order
        ? await recordGatewayRefund(tx, orderRefunds, { target: { orderId: order.id }, ...refund })
        : await recordGatewayRefund(tx, invoiceRefunds, { target: { invoiceId: invoice!.id }, ...refund });
      if (outcome?.kind === "refunded") followed = "followed";
    }
    return followed;
  });
}

/**
 * A payment that succeeded after its order was deleted (unpaid past its 48 hours, or erased while
 * the bank's check was still running) has nothing to pay for: all of it goes back, once (one
 * idempotency key per payment). Only payments this site opened carry an order id.
 */
export async function refundPaymentWithoutOrder(
  { db, gateway }: { db: Database; gateway: HostedCardGateway },
  paymentRef: string,
): Promise<boolean> {
  const payment = await gateway.readPayment(paymentRef);
  if (payment.status !== "succeeded" || !payment.orderId || !isUuid(payment.orderId)) return false;
  const [order] = await db.select({ id: orders.id }).from(orders).where(eq(orders.id, payment.orderId));
  if (order) return false;
  await gateway.refund({
    chargeRef: paymentRef,
    amount: payment.amount,
    currency: payment.currency as CurrencyCode,
    idempotencyKey: `order-gone:${paymentRef}`,
  });
  return true;
}
