import { CURRENCY_CODES } from "~/lib/currency";
import { cardSchema } from "~/features/payments/card";
import { PLAN_IDS } from "~/features/plans/plans";
import { emailAddress, FIELD_LIMITS, requiredText } from "~/features/messages/schemas";
import { z } from "~/lib/zod";

export const TRIAL_CONSENT_REQUIRED =
  "Please tick the box to ask for your free trial to start now: we cannot start it without it.";
const trialConsentShape = { consent: z.literal("on", { error: TRIAL_CONSENT_REQUIRED }) };
const CARD_NOT_READ = "Your card could not be read. Please try again.";

/** The first step: who starts the trial, checked against the one-trial-per-address rule before any card is asked for. */
export const checkoutDetailsSchema = z.object({
  step: z.literal("details"),
  fullName: requiredText(
    "Full name is required",
    FIELD_LIMITS.fullName,
    `Full name must be at most ${FIELD_LIMITS.fullName} characters`,
  ),
  email: emailAddress,
  plan: z.enum(PLAN_IDS, { error: "Please choose a plan" }),
  currency: z.enum(CURRENCY_CODES, { error: "Please choose a currency" }),
});

/**
 * The second step: the same details, the card (kept, not charged), the request to start now, and
 * the form's key, new with every page and every refusal: a form sent twice starts one trial.
 */
export function checkoutCardSchema(now: Date) {
  return checkoutDetailsSchema
    .extend(cardSchema(now).shape)
    .extend(trialConsentShape)
    .extend({
      step: z.literal("card"),
      checkoutKey: z.uuid("This form has expired. Please reload the page and try again."),
    });
}

/**
 * With Stripe: the same details, the request to start now, the form's key, and the card check that
 * Stripe.js confirmed (its id only: the card never reaches our server).
 */
export const checkoutHostedSchema = checkoutDetailsSchema.extend(trialConsentShape).extend({
  step: z.literal("card"),
  checkoutKey: z.uuid("This form has expired. Please reload the page and try again."),
  setupRef: z.string({ error: CARD_NOT_READ }).regex(/^\w{1,255}$/, CARD_NOT_READ),
});
