import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { invoices } from "~/db/schema";
import { refundedSoFar, reserveRefund } from "~/features/payments/refunds.server";
import type { Actor } from "~/lib/actor";
import { formatDateTimeFr } from "~/lib/format-fr";
import { noticeEnd } from "./cancellation-notice";
import { invoiceRefunds } from "./invoice-refund.server";
import { changeMembership, type Membership } from "./membership-status.server";

/**
 * A cancellation that one month's notice brought forward: the new end, what is refunded (minor
 * units, 0 for nothing), and the refund the caller finishes once its transaction commits.
 */
export interface NoticeOutcome {
  endsAt: Date;
  refunded: number;
  refundId?: string;
}

/**
 * A member's cancellation after the first term (the trial and the first paid quarter: the current
 * period is a renewal) ends the membership one month after the request, or at the period's end if
 * that comes first (art. 6:236 sub j BW), and the part of the period's fee after the new end is
 * refunded. `membership` is locked by the caller, in good standing (active) and not ending at once.
 * Returns undefined when the period's end comes first, or within the first term: then nothing
 * changes here and the caller cancels for the period's end as before.
 *
 * The refund is reserved here and made by the caller after the commit (`finishRefund`). Sandbox
 * billing: the period is shortened, and the billing job ends the membership then. A membership
 * Stripe bills is marked for Stripe to be told to cancel then (`cancel_at`), after the commit too.
 */
export async function cancelWithNotice(
  tx: Database,
  membership: Membership,
  { actor, now }: { actor: Actor; now: Date },
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
  await changeMembership(tx, {
    membershipId: membership.id,
    to: membership.status,
    actor,
    note: `Résiliation avec préavis d'un mois : fin le ${formatDateTimeFr(endsAt)}`,
    changes: {
      cancelAtPeriodEnd: true,
      currentPeriodEnd: endsAt,
      ...(membership.providerSubscriptionRef && { providerCancel: "notice" }),
    },
  });
  if (refund <= 0) return { endsAt, refunded: 0 };
  const reserved = await reserveRefund(tx, invoiceRefunds, {
    target: { invoiceId: invoice.id },
    amount: refund,
    reason: "Préavis d'un mois : part non utilisée du trimestre",
    idempotencyKey: `notice:${membership.id}:${invoice.id}`,
    actor,
  });
  return reserved?.kind === "reserved"
    ? { endsAt, refunded: refund, refundId: reserved.refundId }
    : { endsAt, refunded: 0 };
}
