import { randomUUID } from "node:crypto";
import { cardBrand } from "./card";
import type { ChargeOutcome, PaymentGateway } from "./gateway";

/**
 * The documented test cards (README, "Test cards"). Any other number is declined, so a real card
 * typed into a sandbox site never looks paid.
 */
export const SANDBOX_TEST_CARDS: Record<string, { outcome: ChargeOutcome; message: string }> = {
  "4242424242424242": { outcome: "succeeded", message: "Payment accepted." },
  "5555555555554444": { outcome: "succeeded", message: "Payment accepted." },
  "4000000000000002": { outcome: "declined", message: "Your card was declined." },
  "4000000000009995": { outcome: "insufficient_funds", message: "Your card has insufficient funds." },
};

const NOT_A_TEST_CARD = {
  outcome: "declined",
  message: "Your card was declined. This site is in test mode: use one of the documented test cards.",
} as const;

export const sandboxGateway: PaymentGateway = {
  name: "sandbox",
  async charge({ amount, card }) {
    if (!Number.isInteger(amount) || amount <= 0) throw new Error(`Cannot charge an amount of ${amount}`);
    const brand = cardBrand(card.number);
    if (!brand) throw new Error("The sandbox only takes Visa and Mastercard");
    const { outcome, message } = SANDBOX_TEST_CARDS[card.number] ?? NOT_A_TEST_CARD;
    return { outcome, message, brand, last4: card.number.slice(-4), providerRef: `sandbox_${randomUUID()}` };
  },
};
