import { z } from "~/lib/zod";

/**
 * Card rules shared by the payment form and the server. Dates are compared in UTC: a card is
 * valid through the last day of its expiry month.
 */

export type CardBrand = "Visa" | "Mastercard";

export const EXPIRY_YEARS_AHEAD = 9;

/** The card form's fields never sent back to the browser, not even to refill the form after a refusal. */
export const CARD_SECRETS = ["cardNumber", "cvv"];
export const CVV_MAX_LENGTH = 4;

export const EXPIRY_MONTHS = Array.from({ length: 12 }, (_, index) => String(index + 1).padStart(2, "0"));

/** The selectable expiry years: the current year and the next nine. */
export function expiryYears(now: Date): number[] {
  const first = now.getUTCFullYear();
  return Array.from({ length: EXPIRY_YEARS_AHEAD + 1 }, (_, index) => first + index);
}

/** The number as typed, without the spaces people put between groups of digits. */
export function cardDigits(typed: string): string {
  return typed.replace(/\s+/g, "");
}

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** Visa: starts with 4. Mastercard: 51-55, or the 2-series 2221-2720. */
export function cardBrand(digits: string): CardBrand | null {
  if (digits.startsWith("4")) return "Visa";
  const firstTwo = Number(digits.slice(0, 2));
  const firstFour = Number(digits.slice(0, 4));
  if ((firstTwo >= 51 && firstTwo <= 55) || (digits.length >= 4 && firstFour >= 2221 && firstFour <= 2720)) {
    return "Mastercard";
  }
  return null;
}

const VALID_LENGTHS: Record<CardBrand, readonly number[]> = { Visa: [13, 16, 19], Mastercard: [16] };

/** The first problem with a typed card number, or null when it is a plausible Visa or Mastercard. */
export function cardNumberProblem(typed: string): string | null {
  const digits = cardDigits(typed);
  if (digits === "") return "Card number is required";
  if (!/^\d+$/.test(digits)) return "Card number must contain digits only";
  const brand = cardBrand(digits);
  if (!brand) return "Only Visa and Mastercard are accepted";
  if (!VALID_LENGTHS[brand].includes(digits.length) || !passesLuhn(digits)) {
    return "Card number is not valid. Please check it and try again.";
  }
  return null;
}

export function isExpired(month: number, year: number, now: Date): boolean {
  const currentYear = now.getUTCFullYear();
  return year < currentYear || (year === currentYear && month < now.getUTCMonth() + 1);
}

/** The payment form; its output carries the number as digits only. */
export function cardSchema(now: Date) {
  const years = expiryYears(now);
  const yearMessage = `Choose an expiry year from ${years[0]} to ${years.at(-1)}`;
  const monthMessage = "Choose an expiry month from 01 to 12";
  return z
    .object({
      cardNumber: z
        .string({ error: "Card number is required" })
        .superRefine((typed, context) => {
          const problem = cardNumberProblem(typed);
          if (problem) context.addIssue({ code: "custom", message: problem });
        })
        .transform(cardDigits),
      expiryMonth: z.number({ error: monthMessage }).int(monthMessage).min(1, monthMessage).max(12, monthMessage),
      expiryYear: z
        .number({ error: yearMessage })
        .int(yearMessage)
        .min(years[0]!, yearMessage)
        .max(years.at(-1)!, yearMessage),
      cvv: z
        .string({ error: "CVV is required" })
        .trim()
        .regex(/^\d{3,4}$/, "CVV must be 3 or 4 digits"),
    })
    .superRefine((card, context) => {
      // Only a month and year that are each valid can make a card expired; otherwise their own message says why.
      const offered = card.expiryMonth >= 1 && card.expiryMonth <= 12 && years.includes(card.expiryYear);
      if (offered && isExpired(card.expiryMonth, card.expiryYear, now)) {
        context.addIssue({ code: "custom", path: ["expiryMonth"], message: "This card has expired" });
      }
    });
}
