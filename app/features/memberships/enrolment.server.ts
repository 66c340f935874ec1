import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { executePrepared } from "~/db/prepared-statement.server";
import { membershipEvents, memberships, type CurrencyCode, type MembershipPlan } from "~/db/schema";
import { templateMailInsert } from "~/platform/mail/outbox.server";
import type { SavedPaymentMethod } from "~/features/payments/gateway";
import { CUSTOMER_ACTOR } from "~/lib/actor";
import { formatAmount } from "~/lib/currency";
import { siteConfig } from "../../../site.config";
import { formatMemberDay } from "./membership-mails";
import { trialStartedMailTemplate } from "./trial-started-mail-template.server";
import { MEMBERSHIP_TERMS } from "./membership-terms";
import { planFee, TRIAL_PLAN, trialEndsAt as trialEnd } from "./trial-offer";
import type { TrialSummary } from "./trial-summary";

/** A membership its provider bills (a Stripe subscription) rather than our billing job. */
export interface ProviderBilling {
  subscriptionRef: string;
  customerRef: string;
  /** The provider's own end of the trial, which it charges at. */
  trialEndsAt: Date;
}

/**
 * Whether an address, as a lower-cased SQL text value, may still have a free trial: an address gets
 * one, whatever became of it. The one statement of the rule, for `mayStartTrial` and for statements
 * that decide it along with other work (a card payment's first step).
 */
export const trialAvailable = (email: SQL) =>
  sql`(${email} is not null and not exists (select from ${memberships} where ${memberships.email} = ${email}))`;

/** Whether `email` may still have a free trial (`trialAvailable`). */
export async function mayStartTrial(db: Database, email: string | null): Promise<boolean> {
  if (!email) return false;
  const result = (await db.execute(sql`select ${trialAvailable(sql`${email.toLowerCase()}::text`)} as may`)) as {
    rows: Array<{ may: boolean }>;
  };
  return result.rows[0]!.may;
}

/** A trial about to start: who, on which plan and card, and from when. */
export interface NewTrial {
  customerId: string;
  email: string;
  /** The order whose payment starts it; none when it starts at the membership checkout. */
  orderId?: string;
  plan: MembershipPlan;
  currency: CurrencyCode;
  paymentMethod: SavedPaymentMethod;
  billing?: ProviderBilling;
  startedAt: Date;
  /** The membership checkout's request to start within the withdrawal period, and its form's key. */
  checkout?: { consentWording: string; idempotencyKey: string };
}

/**
 * Inserts a trial of `plan`, in its currency, ending `trialDays` after `startedAt`, with the first
 * entry of its history, in one statement; `alongside` adds a write of its own to that statement,
 * done only when the trial is inserted (it reads the new row's id from the relation it is given, and
 * is told the trial's fee and end).
 * An address that already had a membership gets none: the unique e-mail settles two starts racing
 * for the same address. Returns the new membership, or null.
 */
export async function insertTrial(
  db: Database,
  trial: NewTrial,
  alongside?: (membership: SQL, started: { price: number; trialEndsAt: Date }) => SQL,
): Promise<{ id: string; price: number; trialEndsAt: Date } | null> {
  const { billing, paymentMethod, startedAt } = trial;
  const price = planFee(trial.plan);
  const trialEndsAt = billing?.trialEndsAt ?? trialEnd(startedAt);
  const inserted = sql`${sql.identifier("new_membership")}`;
  const insert = db
    .insert(memberships)
    .values({
      customerId: trial.customerId,
      email: trial.email.toLowerCase(),
      orderId: trial.orderId,
      plan: trial.plan,
      currency: trial.currency,
      price,
      status: "trialing",
      trialEndsAt,
      billingAnchor: trialEndsAt,
      currentPeriodStart: startedAt,
      currentPeriodEnd: trialEndsAt,
      paymentMethodRef: paymentMethod.ref,
      cardBrand: paymentMethod.brand,
      cardLast4: paymentMethod.last4,
      providerSubscriptionRef: billing?.subscriptionRef,
      providerCustomerRef: billing?.customerRef,
      consentWording: trial.checkout?.consentWording,
      consentedAt: trial.checkout && startedAt,
      checkoutKey: trial.checkout?.idempotencyKey,
      createdAt: startedAt,
    })
    .onConflictDoNothing({ target: memberships.email })
    .returning({ id: memberships.id });
  const event = sql`insert into ${membershipEvents} (membership_id, from_status, to_status, plan, actor_user_id, actor_label, note, created_at)
    select id, null, 'trialing', ${trial.plan}::text, ${CUSTOMER_ACTOR.userId}::text, ${CUSTOMER_ACTOR.label}::text,
      ${`Essai gratuit de ${MEMBERSHIP_TERMS.trialDays} jours`}::text, ${startedAt.toISOString()}::timestamptz
    from ${inserted}`;
  const [membership] = await executePrepared<{ id: string }>(
    db,
    sql`with ${inserted} as ${insert}, ${sql.identifier("trial_event")} as (${event})${
      alongside
        ? sql`, ${sql.identifier("trial_alongside")} as (${alongside(inserted, { price, trialEndsAt })})`
        : sql``
    } select id from ${inserted}`,
  );
  return membership ? { id: membership.id, price, trialEndsAt } : null;
}

/**
 * Starts the Medium trial that a first paid fast track includes, in the order's currency, and
 * queues the "trial started" e-mail, in one statement. Call it in the payment's transaction.
 * Returns the new membership's id, or null when the address already had one.
 */
export async function startTrial(
  db: Database,
  {
    paidAt,
    origin,
    ...trial
  }: Omit<NewTrial, "plan" | "startedAt" | "checkout"> & { orderId: string; paidAt: Date; origin: string },
): Promise<string | null> {
  const started = await insertTrial(
    db,
    { ...trial, plan: TRIAL_PLAN, startedAt: paidAt },
    (membership, { price, trialEndsAt }) =>
      templateMailInsert(trialStartedMailTemplate, {
        to: trial.email,
        data: {
          to: trial.email,
          planName: siteConfig.pricing[TRIAL_PLAN].name,
          price,
          currency: trial.currency,
          origin,
          trialEndsAt: trialEndsAt.toISOString(),
        },
        onlyWith: membership,
      }),
  );
  return started?.id ?? null;
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
  return trial ? summariseTrial(trial) : null;
}

/** A trial as the pages that start it word it. */
export function summariseTrial(trial: typeof memberships.$inferSelect): TrialSummary {
  return {
    planName: siteConfig.pricing[trial.plan].name,
    freeUntil: formatMemberDay(trial.trialEndsAt),
    fee: formatAmount(trial.price, trial.currency),
    periodMonths: MEMBERSHIP_TERMS.periodMonths,
    card: `${trial.cardBrand} ending ${trial.cardLast4}`,
  };
}
