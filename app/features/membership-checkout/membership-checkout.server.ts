import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { customers, memberships } from "~/db/schema";
import { insertTrial, summariseTrial } from "~/features/memberships/enrolment.server";
import type { TrialSummary } from "~/features/memberships/trial-summary";
import type { Card, CardFormGateway } from "~/features/payments/gateway";
import type { PlanId } from "~/features/site-config/types";
import type { CurrencyCode } from "~/lib/currency";
import { isUuid } from "~/lib/uuid";
import { enqueueMail } from "~/platform/mail/outbox.server";
import { checkoutConsentWording } from "./checkout-terms";
import { membershipContractMail } from "./contract-mail";
import { siteConfig } from "../../../site.config";

export type CheckoutOutcome =
  { kind: "started"; membershipId: string } | { kind: "had-trial" } | { kind: "refused"; message: string };

export const HAD_TRIAL =
  "This e-mail address has already had its free trial: each address gets one. Sign in to your account to see your membership.";

async function membershipOf(db: Database, email: string) {
  const [known] = await db
    .select({ id: memberships.id, checkoutKey: memberships.checkoutKey })
    .from(memberships)
    .where(eq(memberships.email, email.toLowerCase()));
  return known ?? null;
}

/** The first step's check, before any card is asked for: an address gets one trial, whatever became of it. */
export async function hadTrial(db: Database, email: string): Promise<boolean> {
  return (await membershipOf(db, email)) !== null;
}

/** What an address's membership says to a checkout sent with `checkoutKey`: its own start again, or the rule. */
function answerKnown(known: { id: string; checkoutKey: string | null }, checkoutKey: string): CheckoutOutcome {
  return known.checkoutKey === checkoutKey ? { kind: "started", membershipId: known.id } : { kind: "had-trial" };
}

/**
 * Starts `plan`'s free trial at the membership checkout: the card is checked with its bank and kept
 * (not charged), outside any transaction and under the form's key, then the customer of the address,
 * the trial with the request to start now, and the contract e-mail are written together. The same
 * form sent again is answered with the trial it started; an address that had a trial gets none, and
 * its card is not even checked.
 */
export async function startMembershipCheckout(
  db: Database,
  gateway: CardFormGateway,
  input: {
    fullName: string;
    email: string;
    plan: PlanId;
    currency: CurrencyCode;
    card: Card;
    checkoutKey: string;
    origin: string;
    now: Date;
  },
): Promise<CheckoutOutcome> {
  const email = input.email.toLowerCase();
  const known = await membershipOf(db, email);
  if (known) return answerKnown(known, input.checkoutKey);
  const saved = await gateway.saveCard({
    card: input.card,
    idempotencyKey: `membership-checkout:${input.checkoutKey}`,
  });
  if (!saved.paymentMethod) return { kind: "refused", message: saved.message };
  const paymentMethod = saved.paymentMethod;
  const consentWording = checkoutConsentWording(input.plan);
  const membershipId = await db.transaction(async (tx) => {
    const [customer] = await tx
      .insert(customers)
      .values({ fullName: input.fullName, email })
      .onConflictDoUpdate({ target: customers.email, set: { fullName: input.fullName } })
      .returning({ id: customers.id });
    if (!customer) throw new Error("The customer of a membership checkout was not written");
    const trial = await insertTrial(tx, {
      customerId: customer.id,
      email,
      plan: input.plan,
      currency: input.currency,
      paymentMethod,
      startedAt: input.now,
      checkout: { consentWording, idempotencyKey: input.checkoutKey },
    });
    if (!trial) return null;
    await enqueueMail(
      tx,
      await membershipContractMail({
        to: email,
        fullName: input.fullName,
        planId: input.plan,
        planName: siteConfig.pricing[input.plan].name,
        price: trial.price,
        currency: input.currency,
        origin: input.origin,
        startedAt: input.now,
        trialEndsAt: trial.trialEndsAt,
        card: `${paymentMethod.brand} ending ${paymentMethod.last4}`,
        consent: consentWording,
      }),
    );
    return trial.id;
  });
  if (membershipId) return { kind: "started", membershipId };
  // Another start for the address came first: this form's own, sent twice at once, or someone else's.
  const winner = await membershipOf(db, email);
  if (!winner) throw new Error("A membership that blocked a checkout vanished");
  return answerKnown(winner, input.checkoutKey);
}

/** A trial the membership checkout started, for its confirmation page, with the address its e-mail went to. */
export async function checkoutTrial(
  db: Database,
  membershipId: string,
): Promise<(TrialSummary & { email: string | null }) | null> {
  if (!isUuid(membershipId)) return null;
  const [trial] = await db.select().from(memberships).where(eq(memberships.id, membershipId));
  if (!trial?.checkoutKey) return null;
  return { ...summariseTrial(trial), email: trial.email };
}
