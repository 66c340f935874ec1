import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { invoices } from "~/db/schema";
import type { PaymentGateway } from "~/features/payments/gateway";
import { refundedSoFar } from "~/features/payments/refunds.server";
import type { Actor } from "~/lib/actor";
import { formatDateTimeFr } from "~/lib/format-fr";
import { noticeEnd } from "./cancellation-notice";
import { refundInvoice } from "./invoice-refund.server";
import { changeMembership, type Membership } from "./membership-status.server";

/** A cancellation that one month's notice brought forward: the new end, and what was refunded (minor units, 0 for nothing). */
export interface NoticeOutcome {
  endsAt: Date;
  refunded: number;
}

/**
 * A member's cancellation after the first term (the trial and the first paid quarter: the current
 * period is a renewal) ends the membership one month after the request, or at the period's end if
 * that comes first (art. 6:236 sub j BW), and the part of the period's fee after the new end is
 * refunded. `membership` is locked by the caller, in good standing (active) and not ending at once.
 * Returns undefined when the period's end comes first, or within the first term: then nothing
 * changes here and the caller cancels for the period's end as before.
 *
 * Sandbox billing: the period is shortened, and the billing job ends the membership then. A
 * membership Stripe bills is told to cancel then (`cancel_at`) first: if Stripe refuses, nothing
 * here changes.
 */
export async function cancelWithNotice(
  tx: Database,
  membership: Membership,
  { actor, now, gateway }: { actor: Actor; now: Date; gateway: () => PaymentGateway },
): Promise<NoticeOutcome | undefined> {
  if (membership.status !== "active" || membership.currentPeriodStart <= membership.trialEndsAt) return undefined;
  const [invoice] = await tx
    .select()
    .from(invoices)
    .where(
      and(
        eq(invoices.membershipId, membership.id),
        eq(invoices.periodStart, membership.currentPeriodStart),
        inArray(invoices.status, ["paid", "refunded"]),
      ),
    )
    .limit(1);
  // Its fee not recorded as paid yet (Stripe's event still on its way): the period is not cut short
  // without the refund that goes with it, and ends as before.
  if (!invoice) return undefined;
  const { endsAt, refund } = noticeEnd(now, {
    start: membership.currentPeriodStart,
    end: membership.currentPeriodEnd,
    amount: invoice.amount,
    refunded: await refundedSoFar(tx, { invoiceId: invoice.id }),
  });
  if (endsAt >= membership.currentPeriodEnd) return undefined;
  if (membership.providerSubscriptionRef) {
    const provider = gateway();
    if (provider.kind !== "hosted-card")
      throw new Error("This membership is billed by Stripe, which is not configured");
    await provider.cancelSubscriptionAt(membership.providerSubscriptionRef, endsAt);
  }
  await changeMembership(tx, {
    membershipId: membership.id,
    to: membership.status,
    actor,
    note: `Résiliation avec préavis d'un mois : fin le ${formatDateTimeFr(endsAt)}`,
    changes: { cancelAtPeriodEnd: true, currentPeriodEnd: endsAt },
  });
  let refunded = 0;
  if (refund > 0) {
    const outcome = await refundInvoice(tx, gateway(), {
      invoiceId: invoice.id,
      refund: {
        amount: refund,
        reason: "Préavis d'un mois : part non utilisée du trimestre",
        idempotencyKey: `notice:${membership.id}:${invoice.id}`,
      },
      actor,
    });
    if (outcome.kind === "refunded") refunded = outcome.amount;
  }
  return { endsAt, refunded };
}
