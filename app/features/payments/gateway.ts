import type { CurrencyCode } from "~/lib/currency";
import type { CardBrand } from "./card";

/** A validated card as the gateway receives it. It lives only for the duration of one request. */
export interface Card {
  /** Digits only. */
  number: string;
  expiryMonth: number;
  expiryYear: number;
  cvv: string;
}

export interface ChargeRequest {
  orderId: string;
  /** Minor units of `currency`. */
  amount: number;
  currency: CurrencyCode;
  card: Card;
}

export type ChargeOutcome = "succeeded" | "declined" | "insufficient_funds";

export interface ChargeResult {
  outcome: ChargeOutcome;
  /** The gateway's own id for this attempt, unique across attempts. */
  providerRef: string;
  brand: CardBrand;
  last4: string;
  /** What to tell the card holder. */
  message: string;
}

/** Whoever takes the money. The sandbox is the default; a real provider implements the same. */
export interface PaymentGateway {
  /** Stored with each payment, e.g. "sandbox". */
  readonly name: string;
  charge(request: ChargeRequest): Promise<ChargeResult>;
}
