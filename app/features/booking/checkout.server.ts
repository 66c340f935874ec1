import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { orders, payments } from "~/db/schema";
import { enqueueMail } from "~/features/mail/outbox.server";
import { mayStartTrial, startTrial } from "~/features/memberships/enrolment.server";
import type { Card, PaymentGateway } from "~/features/payments/gateway";
import { confirmationMail } from "./confirmation-mail";
import { CUSTOMER_ACTOR } from "~/lib/actor";
import { changeOrderStatus } from "./order-status.server";
import { isPaidStatus, type OrderStatus } from "./order-status";
import { findOrder } from "./orders.server";
import { bookingPageUrl } from "./flight-day-calendar";
import { giveVoucherShortCode } from "./voucher-short-code.server";
import { voucherCheckUrl, voucherCode, voucherQrPng } from "./voucher.server";

export type PaymentResult =
  | { kind: "not-found" }
  | { kind: "paid"; alreadyPaid: boolean }
  | { kind: "declined"; message: string }
  | { kind: "not-payable"; status: OrderStatus };

/**
 * Pays an order by card. The order row stays locked from the check to the commit, so two payments
 * of one order cannot both charge; an order that is already paid is not charged again. Every
 * attempt is recorded in payments (brand, last 4 digits and the gateway's reference, never the
 * number or CVV). A successful charge marks the order paid and queues the confirmation e-mail in
 * the same transaction. `origin` is the site's public origin, for the mail's links and the QR code.
 */
export async function payForOrder(
  db: Database,
  gateway: PaymentGateway,
  { orderId, card, origin }: { orderId: string; card: Card; origin: string },
): Promise<PaymentResult> {
  const order = await findOrder(db, orderId);
  if (!order) return { kind: "not-found" };
  // Made before any money moves, so that a problem here (no secret) cannot follow a charge.
  const voucher = voucherCode(orderId);
  const qrPng = await voucherQrPng(voucherCheckUrl(origin, voucher));
  return db.transaction(async (tx): Promise<PaymentResult> => {
    const [locked] = await tx
      .select({ status: orders.status, customerId: orders.customerId })
      .from(orders)
      .where(eq(orders.id, orderId))
      .for("update");
    // Deleted meanwhile, unpaid past its 48 hours (ADR 008): nothing was charged.
    if (!locked) return { kind: "not-found" };
    const status = locked.status;
    if (isPaidStatus(status)) return { kind: "paid", alreadyPaid: true };
    if (status !== "Not Paid") return { kind: "not-payable", status };

    // The first paid fast track of an address starts a membership trial: its card is kept for the fees.
    const saveCard = await mayStartTrial(tx, order.email);
    const charge = await gateway.charge({ orderId, amount: order.amount, currency: order.currency, card, saveCard });
    await tx.insert(payments).values({
      orderId,
      provider: gateway.name,
      providerRef: charge.providerRef,
      brand: charge.brand,
      last4: charge.last4,
      amount: order.amount,
      currency: order.currency,
      outcome: charge.outcome,
    });
    if (charge.outcome !== "succeeded") return { kind: "declined", message: charge.message };

    await changeOrderStatus(tx, {
      orderId,
      to: "paid",
      actor: CUSTOMER_ACTOR,
      note: `${charge.brand} ending ${charge.last4}, ${gateway.name} ${charge.providerRef}`,
    });
    if (order.email && charge.paymentMethod) {
      await startTrial(tx, {
        customerId: locked.customerId,
        email: order.email,
        orderId,
        currency: order.currency,
        paymentMethod: charge.paymentMethod,
        paidAt: new Date(),
        origin,
      });
    }
    if (order.email) {
      const voucherShortCode = await giveVoucherShortCode(tx, orderId);
      await enqueueMail(
        tx,
        await confirmationMail({
          ...order,
          to: order.email,
          voucherShortCode,
          voucherQrPng: qrPng,
          bookingUrl: bookingPageUrl(origin, orderId),
        }),
      );
    }
    return { kind: "paid", alreadyPaid: false };
  });
}
