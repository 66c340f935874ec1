import { membershipNumber } from "~/features/memberships/membership-card.server";
import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { customers, memberships } from "~/db/schema";
import { insertTrial, summariseTrial, type ProviderBilling } from "~/features/memberships/enrolment.server";
import { trialEndsAt } from "~/features/memberships/trial-offer";
import type { TrialSummary } from "~/features/memberships/trial-summary";
import type { Card, CardFormGateway, HostedCardGateway, SavedPaymentMethod } from "~/features/payments/gateway";
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

interface CheckoutInput {
  fullName: string;
  email: string;
  plan: PlanId;
  currency: CurrencyCode;
  checkoutKey: string;
  origin: string;
  now: Date;
}

/**
 * Starts `plan`'s free trial at the membership checkout, with the sandbox: the card is checked with
 * its bank and kept (not charged), outside any transaction and under the form's key, then the trial
 * is written. The same form sent again is answered with the trial it started; an address that had
 * a trial gets none, and its card is not even checked.
 */
export async function startMembershipCheckout(
  db: Database,
  gateway: CardFormGateway,
  input: CheckoutInput & { card: Card },
): Promise<CheckoutOutcome> {
  const known = await membershipOf(db, input.email);
  if (known) return answerKnown(known, input.checkoutKey);
  const saved = await gateway.saveCard({
    card: input.card,
    idempotencyKey: `membership-checkout:${input.checkoutKey}`,
  });
  if (!saved.paymentMethod) return { kind: "refused", message: saved.message };
  return recordTrial(db, input, saved.paymentMethod);
}

const providerKeys = (checkoutKey: string) => ({
  customer: `membership-checkout:${checkoutKey}:customer`,
  setup: `membership-checkout:${checkoutKey}:setup`,
  subscription: `membership-checkout:${checkoutKey}:subscription`,
});

/**
 * With Stripe, once the address may have a trial: its customer and a card check without payment (a
 * SetupIntent), under keys made from the form's, for Stripe.js to confirm in the browser (3-D
 * Secure when the bank asks).
 */
export async function openHostedCheckout(
  gateway: HostedCardGateway,
  { email, checkoutKey }: { email: string; checkoutKey: string },
): Promise<{ setupRef: string; clientSecret: string }> {
  const keys = providerKeys(checkoutKey);
  const customer = await gateway.openCustomer({ email: email.toLowerCase(), idempotencyKey: keys.customer });
  const setup = await gateway.openCardSetup({ customerRef: customer.ref, idempotencyKey: keys.setup });
  return { setupRef: setup.ref, clientSecret: setup.clientSecret };
}

export const CARD_NOT_CONFIRMED = "Your bank has not confirmed your card. Nothing was charged: please try again.";

/**
 * With Stripe, after Stripe.js confirmed the card: the setup is read from Stripe (never the
 * browser's word) and must belong to this form's customer; the subscription is created with the
 * trial's end as `trial_end`, and the trial is written. A subscription that loses the race for its
 * address is cancelled at once, charging nothing.
 */
export async function settleHostedCheckout(
  db: Database,
  gateway: HostedCardGateway,
  input: CheckoutInput & { setupRef: string },
): Promise<CheckoutOutcome> {
  const known = await membershipOf(db, input.email);
  if (known) return answerKnown(known, input.checkoutKey);
  const keys = providerKeys(input.checkoutKey);
  const customer = await gateway.openCustomer({ email: input.email.toLowerCase(), idempotencyKey: keys.customer });
  const setup = await gateway.readCardSetup(input.setupRef);
  if (setup.customerRef !== customer.ref || setup.status !== "succeeded" || !setup.card) {
    return { kind: "refused", message: CARD_NOT_CONFIRMED };
  }
  const subscription = await gateway.subscribe({
    customerRef: customer.ref,
    paymentMethodRef: setup.card.ref,
    plan: input.plan,
    currency: input.currency,
    trialEndsAt: trialEndsAt(input.now),
    idempotencyKey: keys.subscription,
    startedBy: { email: input.email.toLowerCase() },
  });
  const outcome = await recordTrial(db, input, setup.card, {
    subscriptionRef: subscription.ref,
    customerRef: customer.ref,
    trialEndsAt: subscription.trialEndsAt,
  });
  if (outcome.kind === "had-trial") await gateway.cancelSubscription(subscription.ref);
  return outcome;
}

/**
 * Writes the customer of the address, the trial with the request to start now, and the contract
 * e-mail, together. When another start for the address came first, answers as that one says.
 */
async function recordTrial(
  db: Database,
  input: CheckoutInput,
  paymentMethod: SavedPaymentMethod,
  billing?: ProviderBilling,
): Promise<CheckoutOutcome> {
  const email = input.email.toLowerCase();
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
      billing,
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
        membershipNumber: membershipNumber(trial.id),
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
): Promise<(TrialSummary & { email: string | null; number: string }) | null> {
  if (!isUuid(membershipId)) return null;
  const [trial] = await db.select().from(memberships).where(eq(memberships.id, membershipId));
  if (!trial?.checkoutKey) return null;
  return { ...summariseTrial(trial), email: trial.email, number: membershipNumber(trial.id) };
}
