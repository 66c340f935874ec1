import { WITHDRAWAL_SCOPES, type WithdrawalScope } from "~/db/enums";
import { emailAddress, requiredText, servicesContactSchema } from "~/features/messages/schemas";
import { z } from "~/lib/zod";

/** Longest accepted order or membership number ("FT-1764031117000-ABCDEF" is 23 characters). */
export const CONTRACT_NUMBER_MAX = 40;

/** What the withdrawal form asks (Art. 11a(2)): who, which contract, and where to send the acknowledgement. */
export const withdrawalDetailsSchema = z.object({
  // The same full name as the services contact form asks.
  fullName: servicesContactSchema.shape.fullName,
  contractNumber: requiredText(
    "Order or membership number is required",
    CONTRACT_NUMBER_MAX,
    `Order or membership number must be at most ${CONTRACT_NUMBER_MAX} characters`,
  ),
  email: emailAddress,
  scope: z.enum(WITHDRAWAL_SCOPES, { error: "Choose what you withdraw from" }),
});

/** The choices, as the form and its review word them. */
export const WITHDRAWAL_SCOPE_LABELS: Record<WithdrawalScope, string> = {
  membership: "My membership",
  "fast-track": "My fast-track booking",
  both: "Both",
};

export type WithdrawalDetails = z.output<typeof withdrawalDetailsSchema>;

/** The steps a submission asks for: show the details to confirm, go back to change them, or confirm. */
export const WITHDRAWAL_INTENTS = ["review", "edit", "confirm"] as const;

const EXPIRED = "This form has expired. Please fill it in again.";

/**
 * Every post of /withdraw: the details, the step, and on the confirmation the key the review step
 * made (a second confirmation with it records nothing new).
 */
export const withdrawalSubmissionSchema = withdrawalDetailsSchema
  .extend({
    // The first step's form sent by the Enter key, or an unknown step: the details are reviewed.
    intent: z.enum(WITHDRAWAL_INTENTS).catch("review"),
    idempotencyKey: z.string().optional(),
  })
  // About the whole form, so that the page shows it above the fields.
  .refine((value) => value.intent !== "confirm" || z.uuid().safeParse(value.idempotencyKey).success, {
    message: EXPIRED,
  });
