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
  /** Keep the card for later charges (a membership's renewals): the result then carries its reference. */
  saveCard?: boolean;
}

export type ChargeOutcome = "succeeded" | "declined" | "insufficient_funds";

/** A card kept by the gateway: we hold only its reference, brand and last four digits. */
export interface SavedPaymentMethod {
  ref: string;
  brand: CardBrand;
  last4: string;
}

export interface ChargeResult {
  outcome: ChargeOutcome;
  /** The gateway's own id for this attempt, unique across attempts. */
  providerRef: string;
  brand: CardBrand;
  last4: string;
  /** What to tell the card holder. */
  message: string;
  /** The saved card, when one was asked for and the charge succeeded. */
  paymentMethod?: SavedPaymentMethod;
}

export interface SavedCardChargeRequest {
  paymentMethodRef: string;
  /** Minor units of `currency`. */
  amount: number;
  currency: CurrencyCode;
  /** The same key always gets the first answer again: a retried request never charges twice. */
  idempotencyKey: string;
}

export interface SavedCardChargeResult {
  outcome: ChargeOutcome;
  providerRef: string;
  message: string;
}

export interface RefundRequest {
  /** The gateway's reference of the charge being refunded. */
  chargeRef: string;
  /** Minor units of `currency`. */
  amount: number;
  currency: CurrencyCode;
  idempotencyKey: string;
}

export interface RefundResult {
  providerRef: string;
}

/** Whoever takes the money. The sandbox is the default; a real provider implements the same. */
export interface PaymentGateway {
  /** Stored with each payment, e.g. "sandbox". */
  readonly name: string;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** Charges a saved card with nobody present (a renewal). */
  chargeSaved(request: SavedCardChargeRequest): Promise<SavedCardChargeResult>;
  /** Gives back part or all of a successful charge; throws if the gateway refuses. */
  refund(request: RefundRequest): Promise<RefundResult>;
}
