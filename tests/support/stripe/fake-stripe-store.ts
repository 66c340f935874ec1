import {
  type ApiList,
  type CardState,
  type InvoicePayment,
  type Kind,
  NAMES,
  type Resources,
  type StateHooks,
  type StripeEvent,
  type StripeObject,
  type Subscription,
  changedAttributes,
  newId,
  snapshot,
} from "./fake-stripe-objects";
import { type FormParams, StripeApiError, invalidRequest, readInteger, readText } from "./request-params";
// The fake answers in the version the app pins, as Stripe does for a client that names one.
import { STRIPE_API_VERSION } from "../../../app/features/payments/stripe/stripe-client.server";

/** What every resource of the fake shares: its objects, its clock, lists, expansion and events. */
export abstract class StripeStore {
  readonly events: StripeEvent[] = [];
  /** Set by the server around each API call, for the events it causes. */
  request: { id: string; idempotencyKey: string | null } | undefined;
  protected readonly objects = new Map<string, StripeObject>();
  /** The same objects by kind, in the order made, and each invoice's payments by id: lists read only their own. */
  private readonly kinds = new Map<string, Map<string, StripeObject>>();
  private readonly invoicePayments = new Map<string, string[]>();
  protected readonly cards = new Map<string, CardState>();
  protected readonly invoiceOfIntent = new Map<string, string>();
  protected readonly trialWarned = new Set<string>();
  protected readonly tracked = new Set<string>();
  protected offsetMs = 0;
  protected invoiceCount = 0;

  constructor(protected readonly hooks: StateHooks) {}

  protected now() {
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

  protected expandPath(node: unknown, [key, ...rest]: string[]) {
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
  protected includable(record: Record<string, unknown>, key: string) {
    if (record.object !== "invoice" || typeof record.id !== "string") return undefined;
    const payments = this.paymentsOf(record.id);
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

  protected all<K extends Kind>(kind: K) {
    return [...(this.kinds.get(kind)?.values() ?? [])] as Resources[K][];
  }

  /** An invoice's payments, oldest first. */
  protected paymentsOf(invoiceId: string) {
    return (this.invoicePayments.get(invoiceId) ?? []).map((id) => this.get("invoice_payment", id));
  }

  protected put<T extends StripeObject>(item: T) {
    if (item.object === "invoice_payment" && !this.objects.has(item.id)) {
      const { invoice } = item as unknown as InvoicePayment;
      let ofInvoice = this.invoicePayments.get(invoice);
      if (!ofInvoice) this.invoicePayments.set(invoice, (ofInvoice = []));
      ofInvoice.push(item.id);
    }
    this.objects.set(item.id, item);
    let ofKind = this.kinds.get(item.object);
    if (!ofKind) this.kinds.set(item.object, (ofKind = new Map()));
    ofKind.set(item.id, item);
    return item;
  }

  /** A list page of `items` given oldest first, answered newest first as Stripe does. */
  protected list<T extends { id: string }>(url: string, items: T[], params: FormParams): ApiList<T> {
    const newestFirst = [...items].reverse();
    const limit = Math.min(Math.max(readInteger(params, "limit") ?? 10, 1), 100);
    const after = readText(params, "starting_after");
    const start = after ? newestFirst.findIndex((item) => item.id === after) + 1 : 0;
    const data = newestFirst.slice(start, start + limit);
    return { object: "list", data, has_more: start + limit < newestFirst.length, url };
  }

  protected emit(type: string, object: StripeObject, previous?: Record<string, unknown>) {
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
  protected trackSubscription(subscription: Subscription, change: () => void) {
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
}
