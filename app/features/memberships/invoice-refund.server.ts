import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { invoices, memberships } from "~/db/schema";
import type { PaymentGateway } from "~/features/payments/gateway";
import type { RefundInput } from "~/features/payments/refund";
import { issueRefund, type RefundOutcome } from "~/features/payments/refunds.server";
import type { Actor } from "~/lib/actor";
import { siteConfig } from "../../../site.config";
import { formatMemberDay } from "./membership-mails";

/**
 * Refunds all or part of a paid invoice through the gateway (ADR 016): never more than was paid
 * and not yet refunded. A full refund makes the invoice 'refunded'. The member is told by e-mail.
 */
export async function refundInvoice(
  db: Database,
  gateway: PaymentGateway,
  { invoiceId, refund, actor }: { invoiceId: string; refund: RefundInput; actor: Actor },
): Promise<RefundOutcome | { kind: "not-found" }> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ invoice: invoices, membership: memberships })
      .from(invoices)
      .innerJoin(memberships, eq(memberships.id, invoices.membershipId))
      .where(eq(invoices.id, invoiceId))
      .for("update", { of: invoices });
    if (!row) return { kind: "not-found" };
    const { invoice, membership } = row;
    const paid = invoice.status === "paid" || invoice.status === "refunded";
    const outcome = await issueRefund(tx, gateway, {
      target: { invoiceId },
      chargeRef: paid ? invoice.providerRef : null,
      paid: invoice.amount,
      currency: invoice.currency,
      amount: refund.amount,
      reason: refund.reason,
      idempotencyKey: refund.idempotencyKey,
      actor,
      notify: membership.email
        ? {
            to: membership.email,
            paidFor: `${siteConfig.pricing[membership.plan].name} membership, ${formatMemberDay(invoice.periodStart)} to ${formatMemberDay(invoice.periodEnd)}`,
            cardBrand: membership.cardBrand,
            cardLast4: membership.cardLast4,
          }
        : null,
    });
    if (outcome.kind === "refunded" && outcome.refundedTotal >= invoice.amount) {
      await tx.update(invoices).set({ status: "refunded" }).where(eq(invoices.id, invoiceId));
    }
    return outcome;
  });
}
