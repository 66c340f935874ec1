import { randomBytes } from "node:crypto";
import {
  type FormParams,
  StripeApiError,
  invalidRequest,
  readBoolean,
  readInteger,
  readMetadata,
  readObject,
  readStrings,
  readText,
  required,
} from "./request-params";
// The fake answers in the version the app pins, as Stripe does for a client that names one.
import { STRIPE_API_VERSION } from "../../../app/features/payments/stripe/stripe-client.server";

const DAY = 86_400;
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function randomToken(length: number) {
  return Array.from(randomBytes(length), (byte) => ALPHABET[byte % ALPHABET.length]).join("");
}

const newId = (prefix: string) => `${prefix}_${randomToken(24)}`;
const snapshot = <T>(value: T): T => structuredClone(value);

type Metadata = Record<string, string>;
type Interval = "day" | "week" | "month" | "year";
type ApiList<T> = { object: "list"; data: T[]; has_more: boolean; url: string };
type CardError = { code: string; decline_code?: string; message: string };

interface Customer {
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

interface PaymentMethod {
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

interface PaymentIntent {
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

interface Charge {
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

interface Refund {
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

interface Product {
  id: string;
  object: "product";
  name: string;
  active: boolean;
  description: string | null;
  metadata: Metadata;
  created: number;
  livemode: false;
}

interface Price {
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

interface SubscriptionItem {
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

interface Subscription {
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

interface Period {
  start: number;
  end: number;
}

interface Invoice {
  id: string;
  object: "invoice";
  number: string;
  status: "open" | "paid";
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
  billing_reason: "subscription_create" | "subscription_cycle";
  collection_method: "charge_automatically";
  period_start: number;
  period_end: number;
  lines: ApiList<{ id: string; object: "line_item"; amount: number; currency: string; period: Period }>;
  parent: { type: "subscription_details"; subscription_details: { subscription: string; metadata: Metadata } };
  status_transitions: { finalized_at: number; paid_at: number | null };
  metadata: Metadata;
  created: number;
  livemode: false;
}

interface InvoicePayment {
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

interface Resources {
  customer: Customer;
  payment_method: PaymentMethod;
  payment_intent: PaymentIntent;
  charge: Charge;
  refund: Refund;
  product: Product;
  price: Price;
  subscription: Subscription;
  invoice: Invoice;
  invoice_payment: InvoicePayment;
  event: StripeEvent;
}
type Kind = keyof Resources;
type StripeObject = Resources[Kind];

const NAMES: Record<Kind, string> = {
  customer: "customer",
  payment_method: "PaymentMethod",
  payment_intent: "payment_intent",
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
  | "declines_after_first";
const TEST_CARDS: Record<string, CardKind> = {
  "4242424242424242": "succeeds",
  "5555555555554444": "succeeds",
  "4000002760003184": "authenticates",
  "4000002500003155": "authenticates_until_set_up",
  "4000000000000002": "declines",
  "4000000000009995": "insufficient_funds",
  "4000000000000341": "declines_after_first",
};
const DECLINED: CardError = {
  code: "card_declined",
  decline_code: "generic_decline",
  message: "Your card was declined.",
};
const NO_FUNDS: CardError = {
  code: "card_declined",
  decline_code: "insufficient_funds",
  message: "Your card has insufficient funds.",
};
const AUTHENTICATION_REQUIRED: CardError = {
  code: "authentication_required",
  decline_code: "authentication_required",
  message: "Your card was declined. This transaction requires authentication.",
};
const AUTHENTICATION_FAILED =
  "We are unable to authenticate your payment method. Please choose a different payment method and try again.";
const NO_PAYMENT_METHOD: CardError = {
  code: "invoice_no_payment_method",
  message: "This customer has no attached payment source or default payment method.",
};

/** What the fake remembers of a card instead of its number. */
interface CardState {
  kind: CardKind;
  charged: boolean;
  setUpForFutureUse: boolean;
  usedWithoutCustomer: boolean;
}

function luhnValid(number: string) {
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
function nextBillingDate(anchor: number, after: number, recurring: NonNullable<Price["recurring"]>) {
  for (let count = 1; ; count++) {
    const date = billingCycleDate(anchor, count, recurring);
    if (date > after) return date;
  }
}

function changedAttributes(before: object, after: object) {
  const previous: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(before)) {
    if (JSON.stringify(value) !== JSON.stringify((after as Record<string, unknown>)[key])) previous[key] = value;
  }
  return previous;
}

function cardError(status: number, error: CardError, extra: Record<string, unknown> = {}) {
  return new StripeApiError(status, { type: "card_error", ...error, ...extra });
}

export interface StateHooks {
  origin: string;
  onEvent(event: StripeEvent): void;
  pendingWebhooks(): number;
}

/** Stripe's objects and what happens to them, on a clock tests can move forward. */
export class FakeStripeState {
  readonly events: StripeEvent[] = [];
  /** Set by the server around each API call, for the events it causes. */
  request: { id: string; idempotencyKey: string | null } | undefined;
  private readonly objects = new Map<string, StripeObject>();
  private readonly cards = new Map<string, CardState>();
  private readonly invoiceOfIntent = new Map<string, string>();
  private readonly trialWarned = new Set<string>();
  private readonly tracked = new Set<string>();
  private offsetMs = 0;
  private invoiceCount = 0;

  constructor(private readonly hooks: StateHooks) {}

  private now() {
    return Math.floor((Date.now() + this.offsetMs) / 1000);
  }

  get<K extends Kind>(kind: K, id: string | null | undefined, param?: string): Resources[K] {
    const found = id ? this.objects.get(id) : undefined;
    if (found?.object === kind) return found as Resources[K];
    const message = `No such ${NAMES[kind]}: '${id}'`;
    if (param) throw invalidRequest(message, param, "resource_missing");
    throw new StripeApiError(404, { type: "invalid_request_error", code: "resource_missing", message, param: "id" });
  }

  /** The value with the ids named by `expand` (dotted paths, `data.x` for lists) replaced by their objects. */
  expand(value: unknown, paths: string[]) {
    const copy = snapshot(value);
    for (const path of paths) this.expandPath(copy, path.split("."));
    return copy;
  }

  private expandPath(node: unknown, [key, ...rest]: string[]) {
    if (!key || typeof node !== "object" || node === null) return;
    const record = node as Record<string, unknown>;
    let value = record[key] ?? this.includable(record, key);
    const resolve = (item: unknown) =>
      typeof item === "string" && this.objects.has(item) ? snapshot(this.objects.get(item)) : item;
    value = Array.isArray(value) ? (rest.length ? value : value.map(resolve)) : resolve(value);
    if (value !== undefined) record[key] = value;
    for (const item of Array.isArray(value) ? value : [value]) this.expandPath(item, rest);
  }

  /** Fields Stripe leaves out unless they are asked for with `expand`. */
  private includable(record: Record<string, unknown>, key: string) {
    if (record.object !== "invoice" || typeof record.id !== "string") return undefined;
    const payments = this.all("invoice_payment").filter((payment) => payment.invoice === record.id);
    if (key === "payments") return this.list("/v1/invoice_payments", payments, {});
    const intentId = payments[0]?.payment.payment_intent;
    const intent = intentId ? this.get("payment_intent", intentId) : undefined;
    if (key === "confirmation_secret") {
      return intent && intent.status !== "succeeded"
        ? { client_secret: intent.client_secret, type: "payment_intent" }
        : null;
    }
    return undefined;
  }

  private all<K extends Kind>(kind: K) {
    return [...this.objects.values()].filter((item) => item.object === kind) as Resources[K][];
  }

  private put<T extends StripeObject>(item: T) {
    this.objects.set(item.id, item);
    return item;
  }

  /** A list page of `items` given oldest first, answered newest first as Stripe does. */
  private list<T extends { id: string }>(url: string, items: T[], params: FormParams): ApiList<T> {
    const newestFirst = [...items].reverse();
    const limit = Math.min(Math.max(readInteger(params, "limit") ?? 10, 1), 100);
    const after = readText(params, "starting_after");
    const start = after ? newestFirst.findIndex((item) => item.id === after) + 1 : 0;
    const data = newestFirst.slice(start, start + limit);
    return { object: "list", data, has_more: start + limit < newestFirst.length, url };
  }

  private emit(type: string, object: StripeObject, previous?: Record<string, unknown>) {
    const event: StripeEvent = {
      id: newId("evt"),
      object: "event",
      api_version: STRIPE_API_VERSION,
      created: this.now(),
      type,
      data: {
        object: snapshot(object) as unknown as Record<string, unknown>,
        ...(previous && { previous_attributes: previous }),
      },
      livemode: false,
      pending_webhooks: this.hooks.pendingWebhooks(),
      request: { id: this.request?.id ?? null, idempotency_key: this.request?.idempotencyKey ?? null },
    };
    this.events.push(event);
    this.put(event);
    this.hooks.onEvent(event);
  }

  /** Runs `change`, then emits one customer.subscription.updated with what it changed (nested calls fold in). */
  private trackSubscription(subscription: Subscription, change: () => void) {
    if (this.tracked.has(subscription.id)) return change();
    const before = snapshot(subscription);
    this.tracked.add(subscription.id);
    try {
      change();
    } finally {
      this.tracked.delete(subscription.id);
    }
    const previous = changedAttributes(before, subscription);
    if (Object.keys(previous).length) this.emit("customer.subscription.updated", subscription, previous);
  }

  // Customers

  createCustomer(params: FormParams) {
    const methodId = readText(params, "payment_method");
    const method = methodId ? this.get("payment_method", methodId, "payment_method") : undefined;
    if (method) this.assertAttachable(method);
    const customer = this.put<Customer>({
      id: newId("cus"),
      object: "customer",
      created: this.now(),
      email: readText(params, "email") || null,
      name: readText(params, "name") || null,
      description: readText(params, "description") || null,
      metadata: readMetadata(params),
      invoice_settings: { default_payment_method: null },
      livemode: false,
    });
    if (method) this.attach(method, customer);
    customer.invoice_settings.default_payment_method = this.readDefaultMethod(customer, params) ?? null;
    this.emit("customer.created", customer);
    return customer;
  }

  updateCustomer(id: string, params: FormParams) {
    const customer = this.get("customer", id);
    const before = snapshot(customer);
    const defaultMethod = this.readDefaultMethod(customer, params);
    for (const key of ["email", "name", "description"] as const) {
      const value = readText(params, key);
      if (value !== undefined) customer[key] = value || null;
    }
    customer.metadata = readMetadata(params, customer.metadata);
    if (defaultMethod !== undefined) customer.invoice_settings.default_payment_method = defaultMethod;
    const previous = changedAttributes(before, customer);
    if (Object.keys(previous).length) this.emit("customer.updated", customer, previous);
    return customer;
  }

  private readDefaultMethod(customer: Customer, params: FormParams) {
    const param = "invoice_settings[default_payment_method]";
    const settings = readObject(params, "invoice_settings");
    const id = settings && readText(settings, "default_payment_method", param);
    if (id === undefined) return undefined;
    return id ? this.attachedMethod(customer.id, id, param).id : null;
  }

  private attachedMethod(customerId: string, id: string, param: string) {
    const method = this.get("payment_method", id, param);
    if (method.customer !== customerId) {
      throw invalidRequest(
        `The customer does not have a payment method with the ID ${id}. The payment method must be attached to the customer.`,
        param,
      );
    }
    return method;
  }

  // Payment methods

  createPaymentMethod(params: FormParams) {
    if (readText(params, "type") !== "card") throw invalidRequest("Only type=card is supported here.", "type");
    const card = required(readObject(params, "card"), "card");
    const number = (readText(card, "number", "card[number]") ?? "").replace(/\s/g, "");
    if (!luhnValid(number)) {
      throw cardError(
        402,
        { code: "incorrect_number", message: "Your card number is incorrect." },
        { param: "card[number]" },
      );
    }
    const month = required(readInteger(card, "exp_month", "card[exp_month]"), "card[exp_month]");
    const givenYear = required(readInteger(card, "exp_year", "card[exp_year]"), "card[exp_year]");
    const year = givenYear < 100 ? 2000 + givenYear : givenYear;
    const today = new Date(this.now() * 1000);
    if (month < 1 || month > 12) {
      throw cardError(402, { code: "invalid_expiry_month", message: "Your card's expiration month is invalid." });
    }
    if (year < today.getUTCFullYear() || (year === today.getUTCFullYear() && month < today.getUTCMonth() + 1)) {
      throw cardError(402, { code: "invalid_expiry_year", message: "Your card's expiration year is invalid." });
    }
    const cvc = readText(card, "cvc", "card[cvc]");
    if (cvc !== undefined && !/^\d{3,4}$/.test(cvc)) {
      throw cardError(402, { code: "invalid_cvc", message: "Your card's security code is invalid." });
    }
    const billing = readObject(params, "billing_details") ?? {};
    const method = this.put<PaymentMethod>({
      id: newId("pm"),
      object: "payment_method",
      type: "card",
      created: this.now(),
      customer: null,
      billing_details: { name: readText(billing, "name") || null, email: readText(billing, "email") || null },
      card: {
        brand: number.startsWith("4") ? "visa" : /^(5[1-5]|2[2-7])/.test(number) ? "mastercard" : "unknown",
        last4: number.slice(-4),
        exp_month: month,
        exp_year: year,
        funding: "credit",
        country: "NL",
      },
      metadata: readMetadata(params),
      livemode: false,
    });
    this.cards.set(method.id, {
      kind: TEST_CARDS[number] ?? "declines",
      charged: false,
      setUpForFutureUse: false,
      usedWithoutCustomer: false,
    });
    return method;
  }

  attachPaymentMethod(id: string, params: FormParams) {
    const customer = this.get("customer", required(readText(params, "customer"), "customer"), "customer");
    return this.attach(this.get("payment_method", id), customer);
  }

  private attach(method: PaymentMethod, customer: Customer) {
    if (method.customer === customer.id) return method;
    this.assertAttachable(method);
    method.customer = customer.id;
    this.emit("payment_method.attached", method);
    return method;
  }

  private assertAttachable(method: PaymentMethod) {
    if (method.customer) {
      throw invalidRequest(
        "The payment method you provided has already been attached to a customer.",
        "payment_method",
      );
    }
    if (this.cards.get(method.id)?.usedWithoutCustomer) throw this.consumedMethod();
  }

  private consumedMethod() {
    return invalidRequest(
      "This PaymentMethod was previously used without being attached to a Customer or was detached from a Customer, and may not be used again.",
      "payment_method",
    );
  }

  // Payment intents

  createPaymentIntent(params: FormParams) {
    const amount = required(readInteger(params, "amount"), "amount");
    if (amount < 1) throw invalidRequest("This value must be greater than or equal to 1.", "amount");
    const customer = readText(params, "customer") || null;
    if (customer) this.get("customer", customer, "customer");
    const paymentMethod = readText(params, "payment_method") || null;
    if (paymentMethod) this.get("payment_method", paymentMethod, "payment_method");
    const id = newId("pi");
    const intent = this.put<PaymentIntent>({
      id,
      object: "payment_intent",
      amount,
      amount_received: 0,
      currency: required(readText(params, "currency"), "currency").toLowerCase(),
      status: paymentMethod ? "requires_confirmation" : "requires_payment_method",
      client_secret: `${id}_secret_${randomToken(25)}`,
      customer,
      description: readText(params, "description") || null,
      payment_method: paymentMethod,
      payment_method_types: readStrings(params, "payment_method_types").length
        ? readStrings(params, "payment_method_types")
        : ["card"],
      setup_future_usage: this.readSetupFutureUsage(params),
      capture_method: "automatic",
      confirmation_method: "automatic",
      metadata: readMetadata(params),
      latest_charge: null,
      last_payment_error: null,
      next_action: null,
      canceled_at: null,
      created: this.now(),
      livemode: false,
    });
    this.emit("payment_intent.created", intent);
    const offSession = readBoolean(params, "off_session");
    if (readBoolean(params, "confirm")) return this.confirmIntent(intent, paymentMethod, offSession ?? false);
    if (offSession !== undefined)
      throw invalidRequest("You can only use off_session when confirm=true.", "off_session");
    return intent;
  }

  private readSetupFutureUsage(params: FormParams) {
    const usage = readText(params, "setup_future_usage") || null;
    if (usage && usage !== "on_session" && usage !== "off_session") {
      throw invalidRequest(
        "Invalid setup_future_usage: must be one of on_session or off_session",
        "setup_future_usage",
      );
    }
    return usage;
  }

  updatePaymentIntent(id: string, params: FormParams) {
    const intent = this.get("payment_intent", id);
    if (
      intent.status === "succeeded" &&
      Object.keys(params).some((key) => !["metadata", "description"].includes(key))
    ) {
      throw invalidRequest(
        `You cannot update this PaymentIntent because it has a status of ${intent.status}.`,
        undefined,
        "payment_intent_unexpected_state",
      );
    }
    intent.amount = readInteger(params, "amount") ?? intent.amount;
    intent.currency = readText(params, "currency")?.toLowerCase() ?? intent.currency;
    intent.description = readText(params, "description") ?? intent.description;
    intent.metadata = readMetadata(params, intent.metadata);
    if (params.setup_future_usage !== undefined) intent.setup_future_usage = this.readSetupFutureUsage(params);
    const customer = readText(params, "customer");
    if (customer) intent.customer = this.get("customer", customer, "customer").id;
    const method = readText(params, "payment_method");
    if (method) {
      intent.payment_method = this.get("payment_method", method, "payment_method").id;
      intent.status = "requires_confirmation";
    }
    return intent;
  }

  cancelPaymentIntent(id: string) {
    const intent = this.get("payment_intent", id);
    if (intent.status === "succeeded" || intent.status === "canceled") {
      throw invalidRequest(
        `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`,
        undefined,
        "payment_intent_unexpected_state",
      );
    }
    intent.status = "canceled";
    this.emit("payment_intent.canceled", intent);
    return intent;
  }

  /** The intent as the publishable key may see it: only with its client secret, without customer and metadata. */
  intentForClient(id: string, clientSecret: string | undefined) {
    const intent = this.get("payment_intent", id);
    if (clientSecret !== intent.client_secret) {
      throw invalidRequest(
        "The client_secret provided does not match any associated PaymentIntent on this account.",
        "client_secret",
      );
    }
    return intent;
  }

  publicView(intent: PaymentIntent) {
    const { customer: _customer, metadata: _metadata, latest_charge: _charge, ...visible } = intent;
    return visible;
  }

  confirmPaymentIntent(id: string, params: FormParams) {
    const intent = this.get("payment_intent", id);
    return this.confirmIntent(
      intent,
      readText(params, "payment_method") || null,
      readBoolean(params, "off_session") ?? false,
    );
  }

  private confirmIntent(intent: PaymentIntent, methodId: string | null, offSession: boolean) {
    if (intent.status === "succeeded") {
      throw invalidRequest(
        "You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed.",
        undefined,
        "payment_intent_unexpected_state",
      );
    }
    const id = methodId ?? intent.payment_method;
    if (!id) {
      throw invalidRequest(
        "You cannot confirm this PaymentIntent because it's missing a payment method. To confirm the PaymentIntent with this PaymentMethod, please supply it with the `payment_method` parameter.",
        "payment_method",
        "payment_intent_unexpected_state",
      );
    }
    const method = this.get("payment_method", id, "payment_method");
    if (!method.customer && this.cards.get(method.id)?.usedWithoutCustomer) throw this.consumedMethod();
    const failure = this.charge(intent, method, { offSession, authenticated: false });
    if (failure) {
      throw cardError(402, failure, {
        charge: intent.latest_charge,
        payment_intent: snapshot(intent),
        payment_method: snapshot(method),
      });
    }
    return intent;
  }

  /** A fake-only step: the outcome of the 3-D Secure dialog that the fake Stripe.js shows. */
  authenticatePaymentIntent(id: string, params: FormParams) {
    const intent = this.get("payment_intent", id);
    if (intent.status !== "requires_action") {
      throw invalidRequest(
        `This PaymentIntent is ${intent.status}, not waiting for authentication.`,
        undefined,
        "payment_intent_unexpected_state",
      );
    }
    const method = this.get("payment_method", intent.payment_method);
    const result = readText(params, "result");
    if (result === "succeed") {
      this.charge(intent, method, { offSession: false, authenticated: true });
    } else if (result === "fail") {
      intent.status = "requires_payment_method";
      intent.next_action = null;
      intent.last_payment_error = {
        type: "invalid_request_error",
        code: "payment_intent_authentication_failure",
        message: AUTHENTICATION_FAILED,
        payment_method: snapshot(method),
      };
      this.emit("payment_intent.payment_failed", intent);
    } else {
      throw invalidRequest("Invalid result: must be one of succeed or fail", "result");
    }
    return intent;
  }

  /** One attempt to take the intent's amount from the card, as the test card number says it goes. */
  private charge(
    intent: PaymentIntent,
    method: PaymentMethod,
    options: { offSession: boolean; authenticated: boolean },
  ) {
    const card = this.cards.get(method.id)!;
    intent.payment_method = method.id;
    intent.last_payment_error = null;
    intent.next_action = null;
    const needsAuthentication =
      !options.authenticated &&
      (card.kind === "authenticates" ||
        (card.kind === "authenticates_until_set_up" && !(options.offSession && card.setUpForFutureUse)));
    // A customer on the page, or an invoice, can still authenticate; a direct off-session charge is declined.
    if (needsAuthentication && (!options.offSession || this.invoiceOfIntent.has(intent.id))) {
      intent.status = "requires_action";
      intent.next_action = {
        type: "use_stripe_sdk",
        use_stripe_sdk: {
          type: "three_d_secure_redirect",
          stripe_js: `${this.hooks.origin}/v1/payment_intents/${intent.id}/authenticate`,
          source: newId("src"),
        },
      };
      this.emit("payment_intent.requires_action", intent);
      this.settleInvoice(intent);
      return undefined;
    }
    const failure = needsAuthentication
      ? AUTHENTICATION_REQUIRED
      : card.kind === "declines" || (card.kind === "declines_after_first" && card.charged)
        ? DECLINED
        : card.kind === "insufficient_funds"
          ? NO_FUNDS
          : undefined;
    const charge = this.put<Charge>({
      id: newId("ch"),
      object: "charge",
      amount: intent.amount,
      amount_captured: failure ? 0 : intent.amount,
      amount_refunded: 0,
      captured: !failure,
      created: this.now(),
      currency: intent.currency,
      customer: intent.customer,
      description: intent.description,
      failure_code: failure?.code ?? null,
      failure_message: failure?.message ?? null,
      metadata: { ...intent.metadata },
      paid: !failure,
      payment_intent: intent.id,
      payment_method: method.id,
      payment_method_details: { type: "card", card: { ...method.card } },
      refunded: false,
      status: failure ? "failed" : "succeeded",
      livemode: false,
    });
    intent.latest_charge = charge.id;
    if (failure) {
      intent.status = "requires_payment_method";
      intent.last_payment_error = {
        type: "card_error",
        ...failure,
        charge: charge.id,
        payment_method: snapshot(method),
      };
      this.emit("charge.failed", charge);
      this.emit("payment_intent.payment_failed", intent);
    } else {
      intent.status = "succeeded";
      intent.amount_received = intent.amount;
      card.charged = true;
      if (intent.setup_future_usage && intent.customer) {
        this.attach(method, this.get("customer", intent.customer));
        card.setUpForFutureUse = true;
      } else if (!method.customer) {
        card.usedWithoutCustomer = true;
      }
      this.emit("charge.succeeded", charge);
      this.emit("payment_intent.succeeded", intent);
    }
    this.settleInvoice(intent);
    return failure;
  }

  // Refunds

  createRefund(params: FormParams) {
    const intentId = readText(params, "payment_intent");
    const chargeId = readText(params, "charge");
    if (!intentId && !chargeId) {
      throw invalidRequest(
        "One of the following params should be provided for this request: payment_intent or charge.",
      );
    }
    const intent = intentId ? this.get("payment_intent", intentId, "payment_intent") : undefined;
    const charge = this.get("charge", intent ? intent.latest_charge : chargeId, intent ? "payment_intent" : "charge");
    if (charge.status !== "succeeded") {
      throw invalidRequest(
        `This charge (${charge.id}) does not have a successful payment to refund.`,
        intentId ? "payment_intent" : "charge",
      );
    }
    const left = charge.amount_captured - charge.amount_refunded;
    if (left <= 0)
      throw invalidRequest(`Charge ${charge.id} has already been refunded.`, undefined, "charge_already_refunded");
    const amount = readInteger(params, "amount") ?? left;
    if (amount < 1) throw invalidRequest("This value must be greater than or equal to 1.", "amount");
    if (amount > left) {
      const money = (value: number) =>
        new Intl.NumberFormat("en-US", { style: "currency", currency: charge.currency }).format(value / 100);
      throw invalidRequest(
        `Refund amount (${money(amount)}) is greater than unrefunded amount on charge (${money(left)})`,
        "amount",
        "amount_too_large",
      );
    }
    const reason = readText(params, "reason") || null;
    if (reason && !["duplicate", "fraudulent", "requested_by_customer"].includes(reason)) {
      throw invalidRequest("Invalid reason: must be one of duplicate, fraudulent, or requested_by_customer", "reason");
    }
    const before = snapshot(charge);
    const refund = this.put<Refund>({
      id: newId("re"),
      object: "refund",
      amount,
      charge: charge.id,
      payment_intent: charge.payment_intent,
      currency: charge.currency,
      status: "succeeded",
      reason,
      metadata: readMetadata(params),
      created: this.now(),
    });
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount_captured;
    this.emit("charge.refunded", charge, changedAttributes(before, charge));
    this.emit("refund.created", refund);
    return refund;
  }

  // Products and prices

  createProduct(params: FormParams) {
    const id = readText(params, "id") || newId("prod");
    if (this.objects.has(id)) throw invalidRequest("Product already exists.", "id", "resource_already_exists");
    const product = this.put<Product>({
      id,
      object: "product",
      name: required(readText(params, "name"), "name"),
      active: readBoolean(params, "active") ?? true,
      description: readText(params, "description") || null,
      metadata: readMetadata(params),
      created: this.now(),
      livemode: false,
    });
    this.emit("product.created", product);
    return product;
  }

  createPrice(params: FormParams) {
    const productId = readText(params, "product");
    const productData = readObject(params, "product_data");
    const product = productId
      ? this.get("product", productId, "product")
      : this.createProduct(required(productData, "product"));
    const recurring = readObject(params, "recurring");
    const interval = recurring && required(readText(recurring, "interval"), "recurring[interval]");
    if (interval && !["day", "week", "month", "year"].includes(interval)) {
      throw invalidRequest(
        "Invalid recurring[interval]: must be one of day, month, week, or year",
        "recurring[interval]",
      );
    }
    const lookupKey = readText(params, "lookup_key") || null;
    const holder = lookupKey ? this.all("price").find((price) => price.lookup_key === lookupKey) : undefined;
    if (holder && !readBoolean(params, "transfer_lookup_key")) {
      throw invalidRequest(`A price (\`${holder.id}\`) already uses that lookup key.`, "lookup_key");
    }
    const price = this.put<Price>({
      id: newId("price"),
      object: "price",
      active: readBoolean(params, "active") ?? true,
      currency: required(readText(params, "currency"), "currency").toLowerCase(),
      product: product.id,
      unit_amount: required(readInteger(params, "unit_amount"), "unit_amount"),
      type: recurring ? "recurring" : "one_time",
      recurring: recurring
        ? {
            interval: interval as Interval,
            interval_count: readInteger(recurring, "interval_count", "recurring[interval_count]") ?? 1,
            usage_type: "licensed",
          }
        : null,
      lookup_key: lookupKey,
      nickname: readText(params, "nickname") || null,
      metadata: readMetadata(params),
      created: this.now(),
      livemode: false,
    });
    if (holder) {
      holder.lookup_key = null;
      this.emit("price.updated", holder, { lookup_key: lookupKey });
    }
    this.emit("price.created", price);
    return price;
  }

  listPrices(params: FormParams) {
    const keys = readStrings(params, "lookup_keys");
    const product = readText(params, "product");
    const active = readBoolean(params, "active");
    const prices = this.all("price").filter(
      (price) =>
        (!keys.length || (price.lookup_key !== null && keys.includes(price.lookup_key))) &&
        (!product || price.product === product) &&
        (active === undefined || price.active === active),
    );
    return this.list("/v1/prices", prices, params);
  }

  // Subscriptions

  createSubscription(params: FormParams) {
    const customer = this.get("customer", required(readText(params, "customer"), "customer"), "customer");
    const items = params.items;
    const item =
      Array.isArray(items) && typeof items[0] === "object" && !Array.isArray(items[0]) ? items[0] : undefined;
    const price = this.get(
      "price",
      required(item && readText(item, "price", "items[0][price]"), "items[0][price]"),
      "items[0][price]",
    );
    if (!price.recurring) {
      throw invalidRequest(
        "The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.",
        "items[0][price]",
      );
    }
    const methodId = readText(params, "default_payment_method") || null;
    if (methodId) this.attachedMethod(customer.id, methodId, "default_payment_method");
    const behavior = readText(params, "payment_behavior") ?? "allow_incomplete";
    const offSession = readBoolean(params, "off_session") ?? false;
    const trialDays = readInteger(params, "trial_period_days");
    const trialEndAsked = readInteger(params, "trial_end");
    const now = this.now();
    if (trialEndAsked !== undefined && trialEndAsked <= now) {
      throw invalidRequest("Invalid timestamp: must be an integer Unix timestamp in the future.", "trial_end");
    }
    const trialEnd = trialEndAsked ?? (trialDays ? now + trialDays * DAY : null);
    if (
      !trialEnd &&
      !methodId &&
      !customer.invoice_settings.default_payment_method &&
      behavior !== "default_incomplete"
    ) {
      throw invalidRequest(
        "This customer has no attached payment source or default payment method. Please consider adding a default payment method.",
        undefined,
        "resource_missing",
      );
    }
    const id = newId("sub");
    const quantity = (item && readInteger(item, "quantity", "items[0][quantity]")) ?? 1;
    const period = { start: now, end: trialEnd ?? nextBillingDate(now, now, price.recurring) };
    const subscription = this.put<Subscription>({
      id,
      object: "subscription",
      status: trialEnd ? "trialing" : "incomplete",
      customer: customer.id,
      currency: price.currency,
      default_payment_method: methodId,
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      trial_start: trialEnd ? now : null,
      trial_end: trialEnd,
      start_date: now,
      billing_cycle_anchor: trialEnd ?? now,
      collection_method: "charge_automatically",
      latest_invoice: null,
      items: {
        object: "list",
        data: [
          {
            id: newId("si"),
            object: "subscription_item",
            price,
            quantity,
            current_period_start: period.start,
            current_period_end: period.end,
            subscription: id,
            created: now,
            metadata: {},
          },
        ],
        has_more: false,
        url: `/v1/subscription_items?subscription=${id}`,
      },
      metadata: readMetadata(params),
      created: now,
      livemode: false,
    });
    const invoice = this.openInvoice(
      subscription,
      "subscription_create",
      { start: now, end: now },
      period,
      trialEnd ? 0 : undefined,
    );
    this.emit("customer.subscription.created", subscription);
    if (invoice.status === "open" && behavior !== "default_incomplete") {
      this.trackSubscription(subscription, () => this.collect(invoice, { offSession }));
    }
    if (trialEnd && trialEnd - now <= 3 * DAY) this.warnTrialEnd(subscription);
    return subscription;
  }

  private warnTrialEnd(subscription: Subscription) {
    this.trialWarned.add(subscription.id);
    this.emit("customer.subscription.trial_will_end", subscription);
  }

  updateSubscription(id: string, params: FormParams) {
    const subscription = this.get("subscription", id);
    if (subscription.status === "canceled" && Object.keys(params).some((key) => key !== "metadata")) {
      throw invalidRequest("A canceled subscription can only update its cancellation_details and metadata.");
    }
    this.trackSubscription(subscription, () => {
      const atPeriodEnd = readBoolean(params, "cancel_at_period_end");
      if (atPeriodEnd !== undefined) {
        subscription.cancel_at_period_end = atPeriodEnd;
        subscription.cancel_at = atPeriodEnd ? subscription.items.data[0]!.current_period_end : null;
        subscription.canceled_at = atPeriodEnd ? this.now() : null;
      }
      // A set end (a cancellation with notice): Stripe cancels the subscription then, and it is
      // "at period end" only if that is the period's end. Prorations are not modelled: we ask for none.
      const cancelAt = readInteger(params, "cancel_at");
      if (cancelAt !== undefined) {
        if (cancelAt <= this.now()) throw invalidRequest("cancel_at must be in the future.", "cancel_at");
        const periodEnd = subscription.items.data[0]!.current_period_end;
        subscription.cancel_at = Math.min(cancelAt, periodEnd);
        subscription.cancel_at_period_end = cancelAt >= periodEnd;
        subscription.canceled_at = this.now();
      }
      const method = readText(params, "default_payment_method");
      if (method !== undefined) {
        subscription.default_payment_method = method
          ? this.attachedMethod(subscription.customer, method, "default_payment_method").id
          : null;
      }
      subscription.metadata = readMetadata(params, subscription.metadata);
    });
    return subscription;
  }

  cancelSubscription(id: string) {
    const subscription = this.get("subscription", id);
    if (subscription.status === "canceled") throw invalidRequest("This subscription has already been canceled.");
    subscription.canceled_at = this.now();
    this.end(subscription, subscription.canceled_at);
    return subscription;
  }

  private end(subscription: Subscription, at: number) {
    subscription.status = "canceled";
    subscription.ended_at = at;
    for (const invoice of this.invoicesOf(subscription)) invoice.next_payment_attempt = null;
    this.emit("customer.subscription.deleted", subscription);
  }

  private invoicesOf(subscription: Subscription) {
    return this.all("invoice").filter(
      (invoice) => invoice.parent.subscription_details.subscription === subscription.id,
    );
  }

  // Invoices

  private openInvoice(
    subscription: Subscription,
    reason: Invoice["billing_reason"],
    usage: Period,
    service: Period,
    amount?: number,
  ) {
    const customer = this.get("customer", subscription.customer);
    const item = subscription.items.data[0]!;
    const total = amount ?? item.price.unit_amount * item.quantity;
    const now = this.now();
    const id = newId("in");
    const invoice = this.put<Invoice>({
      id,
      object: "invoice",
      number: `FAKE-${String(++this.invoiceCount).padStart(4, "0")}`,
      status: "open",
      customer: customer.id,
      customer_email: customer.email,
      currency: item.price.currency,
      amount_due: total,
      amount_paid: 0,
      amount_remaining: total,
      subtotal: total,
      total,
      attempt_count: 0,
      attempted: false,
      next_payment_attempt: null,
      billing_reason: reason,
      collection_method: "charge_automatically",
      period_start: usage.start,
      period_end: usage.end,
      lines: {
        object: "list",
        data: [{ id: newId("il"), object: "line_item", amount: total, currency: item.price.currency, period: service }],
        has_more: false,
        url: `/v1/invoices/${id}/lines`,
      },
      parent: {
        type: "subscription_details",
        subscription_details: { subscription: subscription.id, metadata: { ...subscription.metadata } },
      },
      status_transitions: { finalized_at: now, paid_at: null },
      metadata: {},
      created: now,
      livemode: false,
    });
    subscription.latest_invoice = invoice.id;
    this.emit("invoice.created", invoice);
    this.emit("invoice.finalized", invoice);
    if (total === 0) {
      this.markPaid(invoice);
      return invoice;
    }
    const intent = this.createPaymentIntent({
      amount: String(total),
      currency: invoice.currency,
      customer: customer.id,
      description: reason === "subscription_create" ? "Subscription creation" : "Subscription update",
    });
    this.invoiceOfIntent.set(intent.id, invoice.id);
    this.put<InvoicePayment>({
      id: newId("inpay"),
      object: "invoice_payment",
      invoice: invoice.id,
      amount_paid: null,
      amount_requested: total,
      currency: invoice.currency,
      is_default: true,
      payment: { type: "payment_intent", payment_intent: intent.id },
      status: "open",
      created: now,
      livemode: false,
    });
    return invoice;
  }

  private paymentOf(invoice: Invoice) {
    return this.all("invoice_payment").find((payment) => payment.invoice === invoice.id);
  }

  /** Charges the invoice's payment intent on the given card, or the subscription's or customer's default one. */
  private collect(invoice: Invoice, options: { offSession: boolean; paymentMethod?: string }) {
    const intent = this.get("payment_intent", this.paymentOf(invoice)?.payment.payment_intent);
    const subscription = this.get("subscription", invoice.parent.subscription_details.subscription);
    const methodId =
      options.paymentMethod ??
      subscription.default_payment_method ??
      this.get("customer", invoice.customer).invoice_settings.default_payment_method;
    if (!methodId) {
      this.settleInvoice(intent);
      return NO_PAYMENT_METHOD;
    }
    return this.charge(intent, this.get("payment_method", methodId, "payment_method"), {
      offSession: options.offSession,
      authenticated: false,
    });
  }

  private markPaid(invoice: Invoice) {
    invoice.status = "paid";
    invoice.amount_paid = invoice.amount_due;
    invoice.amount_remaining = 0;
    invoice.next_payment_attempt = null;
    invoice.status_transitions.paid_at = this.now();
    const payment = this.paymentOf(invoice);
    if (payment) Object.assign(payment, { status: "paid", amount_paid: invoice.amount_due });
    this.emit("invoice.paid", invoice);
    this.emit("invoice.payment_succeeded", invoice);
  }

  /** The invoice and subscription after an attempt on an invoice's payment intent. */
  private settleInvoice(intent: PaymentIntent) {
    const invoiceId = this.invoiceOfIntent.get(intent.id);
    if (!invoiceId) return;
    const invoice = this.get("invoice", invoiceId);
    const subscription = this.get("subscription", invoice.parent.subscription_details.subscription);
    this.trackSubscription(subscription, () => {
      invoice.attempt_count += 1;
      invoice.attempted = true;
      const live = subscription.status !== "canceled";
      if (intent.status === "succeeded") {
        this.markPaid(invoice);
        if (live) subscription.status = "active";
        return;
      }
      // Stripe's default retry schedule, in short: up to four attempts, three days apart.
      const retries = intent.status !== "requires_action" && invoice.attempt_count < 4 && live;
      invoice.next_payment_attempt = retries ? this.now() + 3 * DAY : null;
      this.emit("invoice.payment_failed", invoice);
      if (intent.status === "requires_action") this.emit("invoice.payment_action_required", invoice);
      if (live && subscription.status !== "incomplete") subscription.status = "past_due";
    });
  }

  listInvoices(params: FormParams) {
    const subscription = readText(params, "subscription");
    const customer = readText(params, "customer");
    const status = readText(params, "status");
    const invoices = this.all("invoice").filter(
      (invoice) =>
        (!subscription || invoice.parent.subscription_details.subscription === subscription) &&
        (!customer || invoice.customer === customer) &&
        (!status || invoice.status === status),
    );
    return this.list("/v1/invoices", invoices, params);
  }

  listRefunds(params: FormParams) {
    const charge = readText(params, "charge");
    const intent = readText(params, "payment_intent");
    const refunds = this.all("refund")
      .filter((refund) => (!charge || refund.charge === charge) && (!intent || refund.payment_intent === intent))
      .reverse();
    return this.list("/v1/refunds", refunds, params);
  }

  listInvoicePayments(params: FormParams) {
    const invoice = readText(params, "invoice");
    const payments = this.all("invoice_payment").filter((payment) => !invoice || payment.invoice === invoice);
    return this.list("/v1/invoice_payments", payments, params);
  }

  payInvoice(id: string, params: FormParams) {
    const invoice = this.get("invoice", id);
    if (invoice.status === "paid") throw invalidRequest("Invoice is already paid", undefined, "invoice_already_paid");
    const intent = this.get("payment_intent", this.paymentOf(invoice)?.payment.payment_intent);
    const paymentMethod = readText(params, "payment_method") || undefined;
    if (intent.status === "requires_action" && !paymentMethod) {
      throw new StripeApiError(402, {
        type: "invalid_request_error",
        code: "invoice_payment_intent_requires_action",
        message: "This payment requires additional user action before it can be completed successfully.",
      });
    }
    const failure = this.collect(invoice, { offSession: readBoolean(params, "off_session") ?? true, paymentMethod });
    if (failure === NO_PAYMENT_METHOD) throw invalidRequest(failure.message, undefined, failure.code);
    if (failure) throw cardError(402, failure, { charge: intent.latest_charge, payment_intent: snapshot(intent) });
    return invoice;
  }

  // Events and the clock

  listEvents(params: FormParams) {
    const type = readText(params, "type");
    const types = readStrings(params, "types");
    const events = this.events.filter(
      (event) => (!type || event.type === type) && (!types.length || types.includes(event.type)),
    );
    return this.list("/v1/events", events, params);
  }

  /** Moves the clock to `target` (Unix seconds), running everything due on the way at its own time. */
  advance(target: number) {
    for (let step = 0; step < 10_000; step++) {
      const due = this.nextDue(target);
      if (!due) break;
      this.setClock(due.at);
      due.run();
    }
    this.setClock(target);
  }

  private setClock(seconds: number) {
    this.offsetMs = Math.max(this.offsetMs, seconds * 1000 - Date.now());
  }

  private nextDue(target: number) {
    let next: { at: number; run: () => void } | undefined;
    const consider = (at: number, run: () => void) => {
      if (at <= target && (!next || at < next.at)) next = { at, run };
    };
    for (const subscription of this.all("subscription")) {
      if (subscription.status === "trialing" && subscription.trial_end && !this.trialWarned.has(subscription.id)) {
        consider(subscription.trial_end - 3 * DAY, () => this.warnTrialEnd(subscription));
      }
      if (["trialing", "active", "past_due"].includes(subscription.status)) {
        const periodEnd = subscription.items.data[0]!.current_period_end;
        const cancelAt = subscription.cancel_at;
        if (cancelAt !== null && cancelAt < periodEnd) consider(cancelAt, () => this.end(subscription, cancelAt));
        else consider(periodEnd, () => this.renew(subscription));
      }
    }
    for (const invoice of this.all("invoice")) {
      const retryAt = invoice.status === "open" ? invoice.next_payment_attempt : null;
      if (retryAt) consider(retryAt, () => this.collect(invoice, { offSession: true }));
    }
    return next;
  }

  private renew(subscription: Subscription) {
    const item = subscription.items.data[0]!;
    const ended = { start: item.current_period_start, end: item.current_period_end };
    if (subscription.cancel_at_period_end) return this.end(subscription, ended.end);
    this.trackSubscription(subscription, () => {
      item.current_period_start = ended.end;
      item.current_period_end = nextBillingDate(subscription.billing_cycle_anchor, ended.end, item.price.recurring!);
      if (subscription.status === "trialing") subscription.status = "active";
      const service = { start: item.current_period_start, end: item.current_period_end };
      const invoice = this.openInvoice(subscription, "subscription_cycle", ended, service);
      if (invoice.status === "open") this.collect(invoice, { offSession: true });
    });
  }
}
