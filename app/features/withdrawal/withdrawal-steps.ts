import type { WithdrawalDetails } from "./withdrawal-schema";

/** What the /withdraw page shows after a post: the details to confirm, the form again, or the receipt. */
export type WithdrawalStep =
  | { step: "review"; details: WithdrawalDetails; idempotencyKey: string }
  | { step: "edit"; details: WithdrawalDetails }
  /** The same for every outcome: the page never tells whether a contract matched. */
  | { step: "received"; day: string; time: string; email: string };

export const MEMBERSHIP_NUMBER_HINT =
  "Your membership's number is the order number of the booking that started it, in your confirmation e-mail.";
