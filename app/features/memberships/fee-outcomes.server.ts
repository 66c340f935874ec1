import { addDays } from "date-fns";
import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { invoices } from "~/db/schema";
import { enqueueMail } from "~/features/mail/outbox.server";
import { SYSTEM_ACTOR } from "~/lib/actor";
import { formatDateTimeFr } from "~/lib/format-fr";
import { siteConfig } from "../../../site.config";
import { paymentFailedMail, receiptMail, type MembershipMailBasics } from "./membership-mails";
import { changeMembership, type Membership } from "./membership-status.server";
import { MEMBERSHIP_TERMS } from "./membership-status";

type Invoice = typeof invoices.$inferSelect;

export function mailBasics(membership: Membership, origin: string): MembershipMailBasics {
  return {
    to: membership.email!,
    planName: siteConfig.pricing[membership.plan].name,
    price: membership.price,
    currency: membership.currency,
    origin,
  };
}

/**
 * A quarter's fee was paid, whoever charged it (our billing job, or Stripe): the invoice says so,
 * the membership is in good standing again and the member gets a receipt. Call it once per invoice,
 * with the membership and the invoice locked.
 */
export async function recordFeePaid(
  tx: Database,
  {
    membership,
    invoice,
    attempts,
    chargeRef,
    paidAt,
    note,
    period,
    origin,
  }: {
    membership: Membership;
    invoice: Invoice;
    attempts: number;
    /** The gateway's reference of the charge, which a refund names. */
    chargeRef: string;
    paidAt: Date;
    /** Who charged, for the history: "sandbox sandbox_…", "stripe in_…". */
    note: string;
    /** The period paid for, when the membership's must follow it (the provider opened it). */
    period?: { start: Date; end: Date };
    origin: string;
  },
) {
  await tx
    .update(invoices)
    .set({ status: "paid", attempts, nextAttemptAt: null, providerRef: chargeRef, lastOutcome: "succeeded", paidAt })
    .where(eq(invoices.id, invoice.id));
  await changeMembership(tx, {
    membershipId: membership.id,
    to: "active",
    actor: SYSTEM_ACTOR,
    note: `Cotisation payée, période du ${formatDateTimeFr(invoice.periodStart)} (${note})`,
    changes: {
      graceEndsAt: null,
      ...(period && { currentPeriodStart: period.start, currentPeriodEnd: period.end }),
    },
  });
  if (!membership.email) return;
  await enqueueMail(
    tx,
    await receiptMail({
      ...mailBasics(membership, origin),
      amount: invoice.amount,
      paidAt,
      periodStart: invoice.periodStart,
      periodEnd: invoice.periodEnd,
      cardBrand: membership.cardBrand,
      cardLast4: membership.cardLast4,
      reference: invoice.id.slice(0, 8).toUpperCase(),
    }),
  );
}

/**
 * A fee was declined. The first decline is the payment reminder: the member has the grace period
 * from `now` to pay, and the membership is past due; later declines only update the invoice.
 * `nextAttempt` says when to try again (null: not us, or not any more).
 */
export async function recordFeeDeclined(
  tx: Database,
  {
    membership,
    invoice,
    attempts,
    outcome,
    now,
    nextAttempt,
    origin,
  }: {
    membership: Membership;
    invoice: Invoice;
    attempts: number;
    outcome: string;
    now: Date;
    nextAttempt: (graceEndsAt: Date) => Date | null;
    origin: string;
  },
) {
  const graceEndsAt =
    membership.status === "past_due" && membership.graceEndsAt
      ? membership.graceEndsAt
      : addDays(now, MEMBERSHIP_TERMS.reminderGraceDays);
  await tx
    .update(invoices)
    .set({ attempts, lastOutcome: outcome, nextAttemptAt: nextAttempt(graceEndsAt) })
    .where(eq(invoices.id, invoice.id));
  if (membership.status === "past_due") return;
  await changeMembership(tx, {
    membershipId: membership.id,
    to: "past_due",
    actor: SYSTEM_ACTOR,
    note: `Paiement refusé (${outcome}) : rappel envoyé, fin le ${formatDateTimeFr(graceEndsAt)} si impayée`,
    changes: { graceEndsAt },
  });
  if (!membership.email) return;
  await enqueueMail(
    tx,
    await paymentFailedMail({
      ...mailBasics(membership, origin),
      amount: invoice.amount,
      endsOn: graceEndsAt,
      cardBrand: membership.cardBrand,
      cardLast4: membership.cardLast4,
    }),
  );
}
