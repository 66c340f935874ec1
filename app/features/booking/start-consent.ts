import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-terms";
import { z } from "~/lib/zod";

export const CONSENT_REQUIRED =
  "Please tick the box to ask for your order to start now: we cannot take your payment without it.";

/**
 * The unticked box above the payment button: the consumer's express request to start within the
 * withdrawal period (CRD Art. 8(8), 16(a)). The server checks it, so it holds without JavaScript.
 */
export const startConsentShape = { consent: z.literal("on", { error: CONSENT_REQUIRED }) };

/**
 * The words of that request, with what withdrawing then costs (Art. 14(3)). Stored word for word
 * with the order when the box is ticked.
 */
export function consentWording(startsTrial: boolean): string {
  const days = MEMBERSHIP_TERMS.changeOfMindDays;
  return startsTrial
    ? `I ask for my Fast Track and my membership's free trial to start now, within the ${days}-day withdrawal period. I understand that if I withdraw I pay for what was provided until then, and that once my Fast Track has been used I can no longer withdraw from it.`
    : `I ask for my Fast Track to be provided within the ${days}-day withdrawal period. I understand that once it has been used I can no longer withdraw from it.`;
}
