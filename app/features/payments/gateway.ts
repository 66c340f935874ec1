import type { MembershipPlan } from "~/db/schema";
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
  /** Stored before the call (`card_charges`): the same key always gets the first answer again. */
  idempotencyKey: string;
}

export type ChargeOutcome = "succeeded" | "declined" | "insufficient_funds";

/** A card kept by the gateway: we hold only its reference, brand and last four digits. */
export interface SavedPaymentMethod {
  ref: string;
  brand: string;
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

export interface SaveCardRequest {
  card: Card;
  /** The same key always gets the first answer again: a form sent twice keeps one card. */
  idempotencyKey: string;
}

/** A card checked with its bank and kept, without a charge; `paymentMethod` only when it was accepted. */
export interface SaveCardResult {
  outcome: ChargeOutcome;
  message: string;
  paymentMethod?: SavedPaymentMethod;
}

export interface SavedCardChargeRequest {
  paymentMethodRef: string;
  /**
   * The card holder is here and asked for the charge (a member's "Pay now"), so the bank's check
   * can run; without it nobody is (a renewal), and a bank that wants its card holder says so.
   */
  customerPresent?: boolean;
  /** Minor units of `currency`. */
  amount: number;
  currency: CurrencyCode;
  /** The same key always gets the first answer again: a retried request never charges twice. */
  idempotencyKey: string;
}

export interface SavedCardChargeResult {
  /** `authentication_required`: the bank wants its card holder to confirm (3-D Secure); nothing was charged. */
  outcome: ChargeOutcome | "authentication_required";
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

export interface ProviderRefund extends RefundResult {
  /** Minor units. */
  amount: number;
  /** The key we asked for it with, when it is one of ours. */
  idempotencyKey?: string;
}

interface GatewayCommon {
  /** Stored with each payment, e.g. "sandbox" or "stripe". */
  readonly name: string;
  /** Gives back part or all of a successful charge; throws if the gateway refuses. */
  refund(request: RefundRequest): Promise<RefundResult>;
}

/**
 * A gateway our own payment page hands the card to, and whose saved cards our billing job charges:
 * the sandbox, the default.
 */
export interface CardFormGateway extends GatewayCommon {
  readonly kind: "card-form";
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** Charges a saved card with nobody present (a renewal). */
  chargeSaved(request: SavedCardChargeRequest): Promise<SavedCardChargeResult>;
  /** Keeps a new card for the membership's next charges, without charging it (a card replaced by its member). */
  saveCard(request: SaveCardRequest): Promise<SaveCardResult>;
}

export interface OpenPaymentRequest {
  orderId: string;
  /** Minor units of `currency`, the order's own amount. */
  amount: number;
  currency: CurrencyCode;
  /** The same key always opens the same payment: one per order. */
  idempotencyKey: string;
  /**
   * For a payment that keeps the card for the membership it starts: the buyer's address, and the
   * plan, which the provider must be able to bill before any money moves.
   */
  saveCardFor?: { email: string; plan: MembershipPlan; idempotencyKey: string };
}

export interface OpenPayment {
  ref: string;
  /** Handed to the browser, which confirms the payment with the card fields the provider hosts. */
  clientSecret: string;
  /** The provider's customer the card is kept for, when one was asked for. */
  customerRef?: string;
}

/** Where a payment stands, as the provider says (never as the browser says). */
export interface HostedPayment {
  ref: string;
  clientSecret: string;
  status: "succeeded" | "processing" | "needs-card" | "needs-action" | "cancelled";
  amount: number;
  currency: string;
  /** The order it was opened for. */
  orderId: string | undefined;
  /** The card that paid or was last tried, when the provider knows it. */
  card?: { brand: string; last4: string; ref: string };
  customerRef?: string;
  /** Why the last attempt failed, in words for the card holder. */
  failure?: string;
}

/**
 * A gateway whose own card fields, in the browser, take the card (Stripe.js): no card number or
 * CVV reaches our server, and the bank's 3-D Secure check runs there.
 */
export interface HostedCardGateway extends GatewayCommon {
  readonly kind: "hosted-card";
  /** What the payment page loads the provider's script with. */
  readonly browser: { publishableKey: string; scriptUrl: string };
  openPayment(request: OpenPaymentRequest): Promise<OpenPayment>;
  readPayment(ref: string): Promise<HostedPayment>;
  /** Starts a membership the provider bills, on the card a payment kept. */
  subscribe(request: SubscribeRequest): Promise<ProviderSubscription>;
  /** Ends a provider-billed membership at once, charging nothing more. */
  cancelSubscription(ref: string): Promise<void>;
  /** Ends it when the period paid for (or the trial) ends: nothing more is charged. */
  cancelSubscriptionAtPeriodEnd(ref: string): Promise<void>;
  /**
   * Ends it at `at`, before its period's end (a cancellation with one month's notice): nothing more
   * is charged, and the provider credits nothing for the rest of the period (we refund it ourselves).
   */
  cancelSubscriptionAt(ref: string, at: Date): Promise<void>;
  readSubscription(ref: string): Promise<ProviderSubscriptionState>;
  /**
   * The payment a charge belongs to and every refund made of it, wherever it was made (the
   * provider's dashboard too).
   */
  readRefunds(chargeRef: string): Promise<{ paymentRef: string | undefined; refunds: ProviderRefund[] }>;
  readInvoice(ref: string): Promise<ProviderInvoiceState>;
  /** The provider's customer a membership's cards and fees belong to; the same key always answers the same one. */
  openCustomer(request: { email: string; idempotencyKey: string }): Promise<{ ref: string }>;
  /** Opens a new card's check with its bank, with no payment (a SetupIntent): the card is kept for the customer. */
  openCardSetup(request: {
    customerRef: string;
    idempotencyKey: string;
  }): Promise<{ ref: string; clientSecret: string }>;
  /** A card's check as the provider says it stands, with the card once it is kept. */
  readCardSetup(ref: string): Promise<HostedCardSetup>;
  /** Makes a card the customer kept (a payment's, `setup_future_usage`) the one the subscription's next fees are charged to. */
  useCardForFees(request: { customerRef: string; subscriptionRef: string; paymentMethodRef: string }): Promise<void>;
  /**
   * What moving the subscription to `plan` at `prorationDate` would charge now, as the provider
   * prorates it (a credit for the old price's unused time, a charge for the new one's): its preview.
   */
  previewPlanChange(request: ProviderPlanRequest & { prorationDate: Date }): Promise<number>;
  /**
   * Moves the subscription to `plan`'s price. With `prorationDate`, the difference for the rest of the
   * period is invoiced and charged at once, and the move is made only if it is paid; without, nothing
   * is charged now and the next period is billed at the new price.
   */
  changeSubscriptionPlan(
    request: ProviderPlanRequest & { idempotencyKey: string; prorationDate?: Date },
  ): Promise<ProviderPlanChange>;
}

export interface ProviderPlanRequest {
  subscriptionRef: string;
  plan: MembershipPlan;
  currency: CurrencyCode;
}

export type ProviderPlanChange =
  /** `invoiceRef` and `paymentRef` name the charge for the difference, when there was one. */
  | { outcome: "succeeded"; amount: number; invoiceRef?: string; paymentRef?: string }
  | { outcome: "declined"; message: string };

/** A new card's check with its bank (a SetupIntent), as the provider says it stands. */
export interface HostedCardSetup {
  ref: string;
  status: HostedPayment["status"];
  /** The customer the card is kept for. */
  customerRef: string | undefined;
  /** The card, once it is kept (`succeeded`). */
  card?: { brand: string; last4: string; ref: string };
}

/** A provider-billed membership, as the provider says it stands now. */
export interface ProviderSubscriptionState {
  ref: string;
  /** The provider's own word: "trialing", "active", "past_due", "canceled", "unpaid", "incomplete"… */
  status: string;
  cancelAtPeriodEnd: boolean;
  /** When it is set to end before its period's end (a cancellation with notice), if it is. */
  cancelAt?: Date;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  /** The order whose payment started it. */
  orderId: string | undefined;
  /** The address a membership checkout started it for. */
  email: string | undefined;
}

/** One of its invoices (a quarter's fee, or a plan change's difference), as the provider says it stands now. */
export interface ProviderInvoiceState {
  ref: string;
  subscriptionRef: string | undefined;
  /** The provider's own word: "draft", "open", "paid", "uncollectible", "void". */
  status: string;
  /** Minor units of `currency`. */
  amountDue: number;
  currency: string;
  /** The period the fee pays for. */
  periodStart: Date;
  periodEnd: Date;
  attempts: number;
  /** The payment that paid it, which a refund names; while it is open, the payment that tries to. */
  paymentRef: string | undefined;
  /** Open and held by the bank until the card holder confirms it (3-D Secure): not declined. */
  awaitsAuthentication: boolean;
  /** The difference of a plan change, invoiced at once: the change records it, not as a quarter's fee. */
  forPlanChange: boolean;
}

export interface SubscribeRequest {
  customerRef: string;
  paymentMethodRef: string;
  plan: MembershipPlan;
  currency: CurrencyCode;
  /** When the trial ends and the first fee is charged: ours, so that the provider charges when we said it would. */
  trialEndsAt: Date;
  idempotencyKey: string;
  /**
   * Whose it is, for the provider's records and for telling a stray one later: the order whose
   * payment started it, or the address a membership checkout started it for.
   */
  startedBy: { orderId: string } | { email: string };
}

export interface ProviderSubscription {
  ref: string;
  trialEndsAt: Date;
}

/** Whoever takes the money: the sandbox by default, Stripe when configured (ADR 018). */
export type PaymentGateway = CardFormGateway | HostedCardGateway;
