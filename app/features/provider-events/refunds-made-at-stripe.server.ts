import { and, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { invoices, orders, payments, type CurrencyCode } from "~/db/schema";
import { refundOrder } from "~/features/booking/order-refund.server";
import { refundInvoice } from "~/features/memberships/invoice-refund.server";
import type { Claim, Followed } from "~/features/memberships/provider-billing.server";
import type { HostedCardGateway } from "~/features/payments/gateway";
import { refundedSoFar } from "~/features/payments/refunds.server";
import type { Actor } from "~/lib/actor";
import { isUuid } from "~/lib/uuid";

const STRIPE_DASHBOARD: Actor = { userId: null, label: "stripe" };

/**
 * A refund made in Stripe's dashboard, not in our back office, still enters our ledger: Stripe's
 * total refunded on the charge, read again, against ours for the same order or invoice, with the
 * order or invoice locked so that a refund of ours being recorded meanwhile is counted once. The
 * difference is recorded the way our own refunds are (the customer is told, a full refund marks
 * the order or invoice refunded), only without asking Stripe to refund it again.
 */
export async function followRefunds(
  { db, gateway }: { db: Database; gateway: HostedCardGateway },
  chargeRef: string,
  claim: Claim,
): Promise<Followed> {
  const charge = await gateway.readCharge(chargeRef);
  if (!charge.paymentRef) return "not-ours";
  const paymentRef = charge.paymentRef;
  // Stripe already gave the money back: recording it is all that is left.
  const recordOnly: HostedCardGateway = { ...gateway, refund: async () => ({ providerRef: chargeRef }) };
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
    const target: { orderId: string } | { invoiceId: string } | undefined = order
      ? { orderId: order.id }
      : invoice
        ? { invoiceId: invoice.id }
        : undefined;
    if (!target) return "not-ours";
    if (!(await claim(tx))) return "duplicate";
    const ours = await refundedSoFar(tx, target);
    if (charge.refunded <= ours) return "nothing-to-do";
    const refund = {
      amount: charge.refunded - ours,
      reason: "Remboursement fait dans le tableau de bord Stripe",
      idempotencyKey: `stripe:${chargeRef}:${charge.refunded}`,
    };
    const outcome =
      "orderId" in target
        ? await refundOrder(tx, recordOnly, { orderId: target.orderId, refund, actor: STRIPE_DASHBOARD })
        : await refundInvoice(tx, recordOnly, { invoiceId: target.invoiceId, refund, actor: STRIPE_DASHBOARD });
    return outcome.kind === "refunded" ? "followed" : "nothing-to-do";
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
