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
  const { parts, inserted, ...started } = trialInsert(trial, { alongside });
  const [membership] = await executePrepared<{ id: string }>(db, sql`with ${parts} select id from ${inserted}`);
  return membership ? { id: membership.id, ...started } : null;
}

/**
 * `insertTrial` as the parts of a `with` list, for a statement that does more (a card payment's
 * settling): the trial is inserted only if the relation `when` has a row, and its customer may be
 * an expression of the statement's earlier parts. `inserted` names the new membership's relation.
 */
export function trialInsert(
  trial: Omit<NewTrial, "customerId"> & { customerId: string | SQL },
  {
    when,
    alongside,
  }: { when?: SQL; alongside?: (membership: SQL, started: { price: number; trialEndsAt: Date }) => SQL },
): { parts: SQL; inserted: SQL; price: number; trialEndsAt: Date } {
  const { billing, paymentMethod, startedAt } = trial;
  const price = planFee(trial.plan);
  const trialEndsAt = billing?.trialEndsAt ?? trialEnd(startedAt);
  const inserted = sql`${sql.identifier("new_membership")}`;
  const time = (at: Date | undefined) => sql`${at?.toISOString() ?? null}::timestamptz`;
  const text = (value: string | undefined) => sql`${value ?? null}::text`;
  const insert = sql`insert into ${memberships} (customer_id, email, order_id, plan, currency, price, status,
      trial_ends_at, billing_anchor, current_period_start, current_period_end, payment_method_ref, card_brand,
      card_last4, provider_subscription_ref, provider_customer_ref, consent_wording, consented_at, checkout_key, created_at)
    select ${trial.customerId}::uuid, ${trial.email.toLowerCase()}::text, ${trial.orderId ?? null}::uuid,
      ${trial.plan}::text, ${trial.currency}::text, ${price}::integer, 'trialing', ${time(trialEndsAt)},
      ${time(trialEndsAt)}, ${time(startedAt)}, ${time(trialEndsAt)}, ${paymentMethod.ref}::text,
      ${paymentMethod.brand}::text, ${paymentMethod.last4}::text, ${text(billing?.subscriptionRef)},
      ${text(billing?.customerRef)}, ${text(trial.checkout?.consentWording)}, ${time(trial.checkout && startedAt)},
      ${text(trial.checkout?.idempotencyKey)}, ${time(startedAt)}
    ${when ? sql`where exists (select from ${when})` : sql``}
    on conflict (email) do nothing
    returning id`;
  const event = sql`insert into ${membershipEvents} (membership_id, from_status, to_status, plan, actor_user_id, actor_label, note, created_at)
    select id, null, 'trialing', ${trial.plan}::text, ${CUSTOMER_ACTOR.userId}::text, ${CUSTOMER_ACTOR.label}::text,
      ${`Essai gratuit de ${MEMBERSHIP_TERMS.trialDays} jours`}::text, ${time(startedAt)}
    from ${inserted}`;
  const parts = sql`${inserted} as (${insert}), ${sql.identifier("trial_event")} as (${event})${
    alongside ? sql`, ${sql.identifier("trial_alongside")} as (${alongside(inserted, { price, trialEndsAt })})` : sql``
  }`;
  return { parts, inserted, price, trialEndsAt };
}

/** A trial a fast track's payment starts: `trialStart`'s input. */
export type PaidOrderTrial = Omit<NewTrial, "plan" | "startedAt" | "checkout" | "customerId"> & {
  customerId: string | SQL;
  orderId: string;
  paidAt: Date;
  origin: string;
};

/**
 * The Medium trial that a first paid fast track includes, in the order's currency, with the "trial
 * started" e-mail, as the parts of a `with` list (`trialInsert`) for the statement that pays the
 * order or follows its payment: done only if the relation `when` has a row, and not for an address
 * that had a membership.
 */
export function trialStart({ paidAt, origin, ...trial }: PaidOrderTrial, when?: SQL) {
  return trialInsert(
    { ...trial, plan: TRIAL_PLAN, startedAt: paidAt },
    {
      when,
      alongside: (membership, { price, trialEndsAt }) =>
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
    },
  );
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
