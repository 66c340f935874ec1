// The objects the Stripe fake keeps, shaped as Stripe's API reference gives them, the test cards and their
// outcomes, and the helpers the resources share.
import { randomBytes } from "node:crypto";
import { StripeApiError } from "./request-params";

export const DAY = 86_400;
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function randomToken(length: number) {
  return Array.from(randomBytes(length), (byte) => ALPHABET[byte % ALPHABET.length]).join("");
}

export const newId = (prefix: string) => `${prefix}_${randomToken(24)}`;
export const snapshot = <T>(value: T): T => structuredClone(value);

type Metadata = Record<string, string>;
export type Interval = "day" | "week" | "month" | "year";
export type ApiList<T> = { object: "list"; data: T[]; has_more: boolean; url: string };
type CardError = { code: string; decline_code?: string; message: string };

export interface Customer {
  id: string;
  object: "customer";
  created: number;
  email: string | null;
  name: string | null;
  description: string | null;
  metadata: Metadata;
  invoice_settings: { default_payment_method: string | null };
  livemode: false;
}

interface CardDetails {
  brand: "visa" | "mastercard" | "unknown";
  last4: string;
  exp_month: number;
  exp_year: number;
  funding: "credit";
  country: "NL";
}

export interface PaymentMethod {
  id: string;
  object: "payment_method";
  type: "card";
  created: number;
  customer: string | null;
  billing_details: { name: string | null; email: string | null };
  card: CardDetails;
  metadata: Metadata;
  livemode: false;
}

export interface PaymentIntent {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_received: number;
  currency: string;
  status: "requires_payment_method" | "requires_confirmation" | "requires_action" | "succeeded" | "canceled";
  client_secret: string;
  customer: string | null;
  description: string | null;
  payment_method: string | null;
  payment_method_types: string[];
  setup_future_usage: string | null;
  capture_method: "automatic";
  confirmation_method: "automatic";
  metadata: Metadata;
  latest_charge: string | null;
  last_payment_error: (CardError & { type: string; charge?: string; payment_method: PaymentMethod }) | null;
  next_action: { type: "use_stripe_sdk"; use_stripe_sdk: Record<string, string> } | null;
  canceled_at: null;
  created: number;
  livemode: false;
}

/** A card checked with its bank and kept for later payments, with no payment now. */
export interface SetupIntent {
  id: string;
  object: "setup_intent";
  status: "requires_payment_method" | "requires_confirmation" | "requires_action" | "succeeded" | "canceled";
  client_secret: string;
  customer: string | null;
  payment_method: string | null;
  payment_method_types: string[];
  usage: "off_session" | "on_session";
  last_setup_error: (CardError & { type: string; payment_method: PaymentMethod }) | null;
  next_action: { type: "use_stripe_sdk"; use_stripe_sdk: Record<string, string> } | null;
  metadata: Metadata;
  created: number;
  livemode: false;
}

export interface Charge {
  id: string;
  object: "charge";
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  captured: boolean;
  created: number;
  currency: string;
  customer: string | null;
  description: string | null;
  failure_code: string | null;
  failure_message: string | null;
  metadata: Metadata;
  paid: boolean;
  payment_intent: string;
  payment_method: string;
  payment_method_details: { type: "card"; card: CardDetails };
  refunded: boolean;
  status: "succeeded" | "failed";
  livemode: false;
}

export interface Refund {
  id: string;
  object: "refund";
  amount: number;
  charge: string;
  payment_intent: string;
  currency: string;
  status: "succeeded";
  reason: string | null;
  metadata: Metadata;
  created: number;
}

export interface Product {
  id: string;
  object: "product";
  name: string;
  active: boolean;
  description: string | null;
  metadata: Metadata;
  created: number;
  livemode: false;
}

export interface Price {
  id: string;
  object: "price";
  active: boolean;
  currency: string;
  product: string;
  unit_amount: number;
  type: "recurring" | "one_time";
  recurring: { interval: Interval; interval_count: number; usage_type: "licensed" } | null;
  lookup_key: string | null;
  nickname: string | null;
  metadata: Metadata;
  created: number;
  livemode: false;
}

export interface SubscriptionItem {
  id: string;
  object: "subscription_item";
  price: Price;
  quantity: number;
  current_period_start: number;
  current_period_end: number;
  subscription: string;
  created: number;
  metadata: Metadata;
}

export interface Subscription {
  id: string;
  object: "subscription";
  status: "trialing" | "active" | "past_due" | "canceled" | "incomplete";
  customer: string;
  currency: string;
  default_payment_method: string | null;
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  canceled_at: number | null;
  ended_at: number | null;
  trial_start: number | null;
  trial_end: number | null;
  start_date: number;
  billing_cycle_anchor: number;
  collection_method: "charge_automatically";
  latest_invoice: string | null;
  items: ApiList<SubscriptionItem>;
  metadata: Metadata;
  created: number;
  livemode: false;
}

export interface Period {
  start: number;
  end: number;
}

export interface Invoice {
  id: string;
  object: "invoice";
  number: string;
  status: "open" | "paid" | "void";
  customer: string;
  customer_email: string | null;
  currency: string;
  amount_due: number;
  amount_paid: number;
  amount_remaining: number;
  subtotal: number;
  total: number;
  attempt_count: number;
  attempted: boolean;
  next_payment_attempt: number | null;
  billing_reason: "subscription_create" | "subscription_cycle" | "subscription_update";
  collection_method: "charge_automatically";
  period_start: number;
  period_end: number;
  lines: ApiList<InvoiceLine>;
  parent: { type: "subscription_details"; subscription_details: { subscription: string; metadata: Metadata } };
  status_transitions: { finalized_at: number; paid_at: number | null };
  metadata: Metadata;
  created: number;
  livemode: false;
}

export interface InvoiceLine {
  id: string;
  object: "line_item";
  amount: number;
  currency: string;
  description: string | null;
  period: Period;
  parent: {
    type: "subscription_item_details";
    subscription_item_details: { subscription: string; subscription_item: string; proration: boolean };
  } | null;
}

export interface InvoicePayment {
  id: string;
  object: "invoice_payment";
  invoice: string;
  amount_paid: number | null;
  amount_requested: number;
  currency: string;
  is_default: true;
  payment: { type: "payment_intent"; payment_intent: string };
  status: "open" | "paid";
  created: number;
  livemode: false;
}

export interface StripeEvent {
  id: string;
  object: "event";
  api_version: string;
  created: number;
  type: string;
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
}

export interface Resources {
  customer: Customer;
  payment_method: PaymentMethod;
  payment_intent: PaymentIntent;
  setup_intent: SetupIntent;
  charge: Charge;
  refund: Refund;
  product: Product;
  price: Price;
  subscription: Subscription;
  invoice: Invoice;
  invoice_payment: InvoicePayment;
  event: StripeEvent;
}
export type Kind = keyof Resources;
export type StripeObject = Resources[Kind];

export const NAMES: Record<Kind, string> = {
  customer: "customer",
  payment_method: "PaymentMethod",
  payment_intent: "payment_intent",
  setup_intent: "setup_intent",
  charge: "charge",
  refund: "refund",
  product: "product",
  price: "price",
  subscription: "subscription",
  invoice: "invoice",
  invoice_payment: "invoice_payment",
  event: "event",
};

type CardKind =
  | "succeeds"
  | "authenticates"
  | "authenticates_until_set_up"
  | "declines"
  | "insufficient_funds"
  /** Attaches to a customer, as Stripe documents 4000 0000 0000 0341; every charge is declined. */
  | "attaches_then_declines";
export const TEST_CARDS: Record<string, CardKind> = {
  "4242424242424242": "succeeds",
  "5555555555554444": "succeeds",
  "4000002760003184": "authenticates",
  "4000002500003155": "authenticates_until_set_up",
  "4000000000000002": "declines",
  "4000000000009995": "insufficient_funds",
  "4000000000000341": "attaches_then_declines",
};
export const DECLINED: CardError = {
  code: "card_declined",
  decline_code: "generic_decline",
  message: "Your card was declined.",
};
export const NO_FUNDS: CardError = {
  code: "card_declined",
  decline_code: "insufficient_funds",
  message: "Your card has insufficient funds.",
};
export const AUTHENTICATION_REQUIRED: CardError = {
  code: "authentication_required",
  decline_code: "authentication_required",
  message: "Your card was declined. This transaction requires authentication.",
};
export const AUTHENTICATION_FAILED =
  "We are unable to authenticate your payment method. Please choose a different payment method and try again.";
export const NO_PAYMENT_METHOD: CardError = {
  code: "invoice_no_payment_method",
  message: "This customer has no attached payment source or default payment method.",
};

/** What the fake remembers of a card instead of its number. */
export interface CardState {
  kind: CardKind;
  setUpForFutureUse: boolean;
  usedWithoutCustomer: boolean;
}

export function luhnValid(number: string) {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  [...number].reverse().forEach((digit, index) => {
    const value = Number(digit) * (index % 2 ? 2 : 1);
    sum += value > 9 ? value - 9 : value;
  });
  return sum % 10 === 0;
}

/**
 * The `count`-th billing date after `anchor` (Unix seconds), as Stripe computes it: whole intervals
 * from the billing cycle anchor, in UTC, a month's day clamped to its last day ("an anchor of
 * January 31 bills February 28, then March 31, April 30"), never chained from the last date.
 */
export function billingCycleDate(
  anchor: number,
  count: number,
  { interval, interval_count }: Pick<NonNullable<Price["recurring"]>, "interval" | "interval_count">,
) {
  if (interval === "day" || interval === "week")
    return anchor + count * interval_count * (interval === "day" ? 1 : 7) * DAY;
  const date = new Date(anchor * 1000);
  const months = date.getUTCMonth() + count * interval_count * (interval === "year" ? 12 : 1);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), months + 1, 0)).getUTCDate();
  date.setUTCFullYear(date.getUTCFullYear(), months, Math.min(date.getUTCDate(), lastDay));
  return Math.floor(date.getTime() / 1000);
}

/** The first billing date after `after`: where a period that starts then ends. */
export function nextBillingDate(anchor: number, after: number, recurring: NonNullable<Price["recurring"]>) {
  for (let count = 1; ; count++) {
    const date = billingCycleDate(anchor, count, recurring);
    if (date > after) return date;
  }
}

export function changedAttributes(before: object, after: object) {
  const previous: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(before)) {
    if (JSON.stringify(value) !== JSON.stringify((after as Record<string, unknown>)[key])) previous[key] = value;
  }
  return previous;
}

export function cardError(status: number, error: CardError, extra: Record<string, unknown> = {}) {
  return new StripeApiError(status, { type: "card_error", ...error, ...extra });
}

export interface StateHooks {
  origin: string;
  onEvent(event: StripeEvent): void;
  pendingWebhooks(): number;
}

/** Stripe's objects and what happens to them, on a clock tests can move forward. */
