import { and, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { membershipEvents, memberships, type CurrencyCode } from "~/db/schema";
import { enqueueMail } from "~/platform/mail/outbox.server";
import type { SavedPaymentMethod } from "~/features/payments/gateway";
import { CUSTOMER_ACTOR } from "~/lib/actor";
import { formatAmount } from "~/lib/currency";
import { siteConfig } from "../../../site.config";
import { formatMemberDay, trialStartedMail } from "./membership-mails";
import { MEMBERSHIP_TERMS } from "./membership-terms";
import { TRIAL_PLAN, trialEndsAt as trialEnd, trialFee } from "./trial-offer";
import type { TrialSummary } from "./trial-summary";

/** A membership its provider bills (a Stripe subscription) rather than our billing job. */
export interface ProviderBilling {
  subscriptionRef: string;
  customerRef: string;
  /** The provider's own end of the trial, which it charges at. */
  trialEndsAt: Date;
}

/** Whether `email` may still have a free trial: an address gets one, whatever became of it. */
export async function mayStartTrial(db: Database, email: string | null): Promise<boolean> {
  if (!email) return false;
  const [known] = await db
    .select({ id: memberships.id })
    .from(memberships)
    .where(eq(memberships.email, email.toLowerCase()));
  return !known;
}

/**
 * Starts the Medium trial that a first paid fast track includes, in the order's currency, ending
 * `trialDays` after `paidAt`, and queues the "trial started" e-mail. Call it in the payment's
 * transaction. An address that already had a membership gets none: the unique e-mail settles two
 * payments racing for the same address. Returns the new membership's id, or null.
 */
export async function startTrial(
  db: Database,
  {
    customerId,
    email,
    orderId,
    currency,
    paymentMethod,
    billing,
    paidAt,
    origin,
  }: {
    customerId: string;
    email: string;
    orderId: string;
    currency: CurrencyCode;
    paymentMethod: SavedPaymentMethod;
    billing?: ProviderBilling;
    paidAt: Date;
    origin: string;
  },
): Promise<string | null> {
  const plan = siteConfig.pricing[TRIAL_PLAN];
  const price = trialFee();
  const trialEndsAt = billing?.trialEndsAt ?? trialEnd(paidAt);
  const [membership] = await db
    .insert(memberships)
    .values({
      customerId,
      email: email.toLowerCase(),
      orderId,
      plan: TRIAL_PLAN,
      currency,
      price,
      status: "trialing",
      trialEndsAt,
      billingAnchor: trialEndsAt,
      currentPeriodStart: paidAt,
      currentPeriodEnd: trialEndsAt,
      paymentMethodRef: paymentMethod.ref,
      cardBrand: paymentMethod.brand,
      cardLast4: paymentMethod.last4,
      providerSubscriptionRef: billing?.subscriptionRef,
      providerCustomerRef: billing?.customerRef,
      createdAt: paidAt,
    })
    .onConflictDoNothing({ target: memberships.email })
    .returning({ id: memberships.id });
  if (!membership) return null;
  await db.insert(membershipEvents).values({
    membershipId: membership.id,
    fromStatus: null,
    toStatus: "trialing",
    actorUserId: CUSTOMER_ACTOR.userId,
    actorLabel: CUSTOMER_ACTOR.label,
    note: `Essai gratuit de ${MEMBERSHIP_TERMS.trialDays} jours`,
    createdAt: paidAt,
  });
  await enqueueMail(
    db,
    await trialStartedMail({ to: email, planName: plan.name, price, currency, origin, trialEndsAt }),
  );
  return membership.id;
}

/**
 * The trial `orderId`'s payment started, while it is still a trial that will run on (not cancelled):
 * the texts are made here, on the server, so that the page shows the same day wherever it renders.
 */
export async function trialStartedBy(db: Database, orderId: string): Promise<TrialSummary | null> {
  const [trial] = await db
    .select()
    .from(memberships)
    .where(
      and(
        eq(memberships.orderId, orderId),
        eq(memberships.status, "trialing"),
        eq(memberships.cancelAtPeriodEnd, false),
      ),
    );
  if (!trial) return null;
  return {
    planName: siteConfig.pricing[trial.plan].name,
    freeUntil: formatMemberDay(trial.trialEndsAt),
    fee: formatAmount(trial.price, trial.currency),
    periodMonths: MEMBERSHIP_TERMS.periodMonths,
    card: `${trial.cardBrand} ending ${trial.cardLast4}`,
  };
}
