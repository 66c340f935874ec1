import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { invoices, memberships } from "~/db/schema";
import type { PaymentGateway } from "~/features/payments/gateway";
import type { RefundInput } from "~/features/payments/refund";
import { issueRefund, type Refundable, type RefundOutcome } from "~/features/payments/refunds.server";
import type { Actor } from "~/lib/actor";
import { siteOrigin } from "~/lib/site-origin.server";
import { manageMembershipLink } from "~/features/auth/sign-in-link.server";
import { siteConfig } from "../../../site.config";
import { formatMemberDay } from "./membership-mails";

/** Refunds of a membership's invoice (ADR 016): its charge, and 'refunded' once all of it is given back. */
export const invoiceRefunds: Refundable<{ invoiceId: string }> = {
  async lock(tx, { invoiceId }) {
    const [row] = await tx
      .select({ invoice: invoices, membership: memberships })
      .from(invoices)
      .innerJoin(memberships, eq(memberships.id, invoices.membershipId))
      .where(eq(invoices.id, invoiceId))
      .for("update", { of: invoices });
    if (!row) return null;
    const { invoice, membership } = row;
    const paid = invoice.status === "paid" || invoice.status === "refunded";
    return {
      chargeRef: paid ? invoice.providerRef : null,
      paid: invoice.amount,
      currency: invoice.currency,
      notify: membership.email
        ? {
            to: membership.email,
            paidFor: `${siteConfig.pricing[membership.plan].name} membership, ${formatMemberDay(invoice.periodStart)} to ${formatMemberDay(invoice.periodEnd)}`,
            cardBrand: membership.cardBrand,
            cardLast4: membership.cardLast4,
            account: {
              label: "Manage your membership",
              href: manageMembershipLink(siteOrigin(), membership.email),
            },
          }
        : null,
    };
  },
  async fullyRefunded(tx, { invoiceId }) {
    await tx.update(invoices).set({ status: "refunded" }).where(eq(invoices.id, invoiceId));
  },
};

/**
 * Refunds all or part of a paid invoice through the gateway: never more than was paid and not yet
 * refunded. A full refund makes the invoice 'refunded'. The member is told by e-mail.
 */
export async function refundInvoice(
  db: Database,
  gateway: PaymentGateway,
  { invoiceId, refund, actor }: { invoiceId: string; refund: RefundInput; actor: Actor },
): Promise<RefundOutcome | { kind: "not-found" }> {
  const outcome = await issueRefund(db, gateway, invoiceRefunds, {
    target: { invoiceId },
    ...refund,
    fullConfirmed: refund.confirmed,
    actor,
  });
  return outcome ?? { kind: "not-found" };
}
