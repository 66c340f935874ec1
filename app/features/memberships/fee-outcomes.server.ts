import { addDays } from "date-fns";
import { eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { invoices } from "~/db/schema";
import { enqueueMail, enqueueMails, type OutgoingMail } from "~/platform/mail/outbox.server";
import { SYSTEM_ACTOR } from "~/lib/actor";
import { eventLoopShare, type EventLoopShare } from "~/lib/event-loop-share.server";
import { formatDateTimeFr } from "~/lib/format-fr";
import { siteConfig } from "../../../site.config";
import { paymentConfirmationMail, paymentFailedMail, receiptMail, type MembershipMailBasics } from "./membership-mails";
import { changeMembership, changeMemberships, type Membership } from "./membership-status.server";
import { MEMBERSHIP_TERMS } from "./membership-terms";

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

/** A quarter's fee that was paid: see `recordFeesPaid`. */
export interface PaidFee {
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
  /** The card that paid, when it may not be the membership's (the member paid with another on the provider's page). */
  card?: { brand: string; last4: string };
}

/**
 * Quarters' fees were paid, whoever charged them (our billing job, or Stripe): the invoices say so,
 * the memberships are in good standing again and each member gets a receipt. In a few statements
 * however many fees there are. Call it once per invoice, with the memberships and the invoices
 * locked, and one fee per membership. A job passes its own `share` of the event loop.
 */
export async function recordFeesPaid(
  tx: Database,
  fees: PaidFee[],
  origin: string,
  share: EventLoopShare = eventLoopShare(),
) {
  if (fees.length === 0) return;
  // The trigger that numbers paid invoices (ADR 028) draws each number in this statement.
  const numbered = (await tx.execute(sql`
    update ${invoices} set status = 'paid', attempts = paid.attempts, next_attempt_at = null,
      provider_ref = paid.charge_ref, last_outcome = 'succeeded', paid_at = paid.paid_at
    from unnest(${sql.param(fees.map((fee) => fee.invoice.id))}::uuid[],
                ${sql.param(fees.map((fee) => fee.attempts))}::int[],
                ${sql.param(fees.map((fee) => fee.chargeRef))}::text[],
                ${sql.param(fees.map((fee) => fee.paidAt.toISOString()))}::timestamptz[])
      as paid(id, attempts, charge_ref, paid_at)
    where ${invoices.id} = paid.id
    returning ${invoices.id} as id, ${invoices.number} as number`)) as unknown as {
    rows: { id: string; number: string }[];
  };
  const numbers = new Map(numbered.rows.map((row) => [row.id, row.number]));
  await changeMemberships(
    tx,
    fees.map(({ membership, invoice, note, period }) => ({
      membershipId: membership.id,
      to: "active",
      actor: SYSTEM_ACTOR,
      note: `Cotisation payée, période du ${formatDateTimeFr(invoice.periodStart)} (${note})`,
      changes: {
        graceEndsAt: null,
        ...(period && { currentPeriodStart: period.start, currentPeriodEnd: period.end }),
      },
    })),
  );
  // One after the other, pausing for requests: a hundred renders at once would hold the event loop.
  const receipts: OutgoingMail[] = [];
  for (const { membership, invoice, paidAt, card } of fees) {
    if (!membership.email) continue;
    await share.pause();
    receipts.push(
      await receiptMail({
        ...mailBasics(membership, origin),
        amount: invoice.amount,
        paidAt,
        periodStart: invoice.periodStart,
        periodEnd: invoice.periodEnd,
        cardBrand: card?.brand ?? membership.cardBrand,
        cardLast4: card?.last4 ?? membership.cardLast4,
        invoiceNumber: numbers.get(invoice.id)!,
      }),
    );
  }
  await enqueueMails(tx, receipts);
}

/** A fee's attempt that the bank held for its card holder's confirmation (3-D Secure), not declined. */
export const AUTHENTICATION_REQUIRED = "authentication_required";

/**
 * A fee was declined, or held for the card holder's confirmation (`AUTHENTICATION_REQUIRED`). The
 * first one is the payment reminder, or the request to confirm: the member has the grace period
 * from `now` to pay, and the membership is past due; later ones only update the invoice.
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
    note:
      outcome === AUTHENTICATION_REQUIRED
        ? `Paiement à confirmer par le membre (3-D Secure) : demande envoyée, fin le ${formatDateTimeFr(graceEndsAt)} si impayée`
        : `Paiement refusé (${outcome}) : rappel envoyé, fin le ${formatDateTimeFr(graceEndsAt)} si impayée`,
    changes: { graceEndsAt },
  });
  if (!membership.email) return;
  const reminder = outcome === AUTHENTICATION_REQUIRED ? paymentConfirmationMail : paymentFailedMail;
  await enqueueMail(
    tx,
    await reminder({
      ...mailBasics(membership, origin),
      amount: invoice.amount,
      endsOn: graceEndsAt,
      cardBrand: membership.cardBrand,
      cardLast4: membership.cardLast4,
    }),
  );
}
