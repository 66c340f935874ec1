import {
  DAY,
  type Interval,
  type Invoice,
  type InvoiceLine,
  type InvoicePayment,
  NO_PAYMENT_METHOD,
  type PaymentIntent,
  type Period,
  type Price,
  type Product,
  type Subscription,
  cardError,
  newId,
  nextBillingDate,
  snapshot,
} from "./fake-stripe-objects";
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
import { PaymentsState } from "./fake-stripe-payments";

/** One line of an invoice the fake makes: a period's fee, or a proration of a price change. */
interface Proration {
  amount: number;
  description: string | null;
  period: Period;
  proration: boolean;
}

/** Products and prices, subscriptions and their invoices. */
export abstract class BillingState extends PaymentsState {
  /** Ends the subscription's period now and opens the next: its invoice is charged at once. */
  protected abstract renew(subscription: Subscription): void;

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

  protected warnTrialEnd(subscription: Subscription) {
    this.trialWarned.add(subscription.id);
    this.emit("customer.subscription.trial_will_end", subscription);
  }

  updateSubscription(id: string, params: FormParams) {
    const subscription = this.get("subscription", id);
    if (subscription.status === "canceled" && Object.keys(params).some((key) => key !== "metadata")) {
      throw invalidRequest("A canceled subscription can only update its cancellation_details and metadata.");
    }
    const newPrice = this.itemPrice(subscription, params.items);
    if (newPrice) this.changePrice(subscription, newPrice, params);
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
    // `trial_end=now` ends a trial at once: the first paid period starts, its anchor with it, and is invoiced.
    const trialEnd = readText(params, "trial_end");
    if (trialEnd !== undefined) {
      if (trialEnd !== "now" || subscription.status !== "trialing") {
        throw invalidRequest("The fake only takes trial_end=now, for a subscription in its trial.", "trial_end");
      }
      const now = this.now();
      subscription.trial_end = now;
      subscription.billing_cycle_anchor = now;
      subscription.items.data[0]!.current_period_end = now;
      this.renew(subscription);
    }
    return subscription;
  }

  /** The price `items[0]` moves the subscription's one item to, if it names one. */
  private itemPrice(subscription: Subscription, items: FormParams[string] | undefined) {
    if (items === undefined) return undefined;
    const item =
      Array.isArray(items) && typeof items[0] === "object" && !Array.isArray(items[0]) ? items[0] : undefined;
    const itemId = required(item && readText(item, "id", "items[0][id]"), "items[0][id]");
    if (itemId !== subscription.items.data[0]!.id) {
      throw invalidRequest(`No such subscription item: '${itemId}'`, "items[0][id]", "resource_missing");
    }
    const price = this.get(
      "price",
      required(readText(item!, "price", "items[0][price]"), "items[0][price]"),
      "items[0][price]",
    );
    if (price.currency !== subscription.currency) {
      throw invalidRequest("The price's currency must match the subscription's currency.", "items[0][price]");
    }
    return price;
  }

  /**
   * What moving the item to `price` at `at` is worth, as Stripe prorates it: a credit for the unused
   * time on the old price and a charge for the same time on the new one, each to the second of the
   * billing period and rounded on its own. A trial has nothing to prorate.
   */
  protected prorations(subscription: Subscription, price: Price, at: number): Proration[] {
    const item = subscription.items.data[0]!;
    const period = { start: item.current_period_start, end: item.current_period_end };
    if (at < period.start || at > period.end) {
      throw invalidRequest(
        "The proration date must fall within the subscription's current billing period.",
        "proration_date",
      );
    }
    if (subscription.status === "trialing") return [];
    const share = (period.end - at) / (period.end - period.start);
    const after = new Date(at * 1000).toISOString().slice(0, 10);
    const rest = { start: at, end: period.end };
    return [
      {
        amount: -Math.round(item.price.unit_amount * item.quantity * share),
        description: `Unused time on ${item.price.id} after ${after}`,
        period: rest,
        proration: true,
      },
      {
        amount: Math.round(price.unit_amount * item.quantity * share),
        description: `Remaining time on ${price.id} after ${after}`,
        period: rest,
        proration: true,
      },
    ];
  }

  private changePrice(subscription: Subscription, price: Price, params: FormParams) {
    const behavior = readText(params, "proration_behavior") ?? "create_prorations";
    if (behavior !== "none" && behavior !== "always_invoice") {
      throw invalidRequest("The fake models proration_behavior none and always_invoice only.", "proration_behavior");
    }
    const item = subscription.items.data[0]!;
    const at = readInteger(params, "proration_date") ?? this.now();
    const prorations = behavior === "always_invoice" ? this.prorations(subscription, price, at) : [];
    const old = item.price;
    this.trackSubscription(subscription, () => {
      item.price = price;
    });
    if (!prorations.length) return;
    const invoice = this.openInvoice(
      subscription,
      "subscription_update",
      { start: at, end: at },
      { start: at, end: item.current_period_end },
      undefined,
      prorations,
    );
    if (invoice.status !== "open") return;
    const failure = this.collect(invoice, { offSession: readBoolean(params, "off_session") ?? false });
    if (
      (invoice.status as Invoice["status"]) === "paid" ||
      readText(params, "payment_behavior") !== "error_if_incomplete"
    ) {
      return;
    }
    // error_if_incomplete: the update is not made and its invoice not left to be paid.
    this.trackSubscription(subscription, () => {
      item.price = old;
      subscription.status = "active";
    });
    invoice.status = "void";
    invoice.next_payment_attempt = null;
    this.emit("invoice.voided", invoice);
    const intent = this.get("payment_intent", this.paymentOf(invoice)?.payment.payment_intent);
    if (failure && failure !== NO_PAYMENT_METHOD) {
      throw cardError(402, failure, { charge: intent.latest_charge, payment_intent: snapshot(intent) });
    }
    throw new StripeApiError(402, {
      type: "card_error",
      code: "subscription_payment_intent_requires_action",
      message: "Payment for this subscription requires additional user action before it can be completed successfully.",
    });
  }

  /** An invoice that is not made: what an update of the subscription would invoice now (POST /v1/invoices/create_preview). */
  previewInvoice(params: FormParams) {
    const subscription = this.get(
      "subscription",
      required(readText(params, "subscription"), "subscription"),
      "subscription",
    );
    const details = readObject(params, "subscription_details") ?? {};
    const price = this.itemPrice(subscription, details.items);
    const behavior = readText(details, "proration_behavior", "subscription_details[proration_behavior]");
    const at = readInteger(details, "proration_date", "subscription_details[proration_date]") ?? this.now();
    const prorations = price && behavior !== "none" ? this.prorations(subscription, price, at) : [];
    const lines = prorations.map((line) => this.invoiceLine(subscription, line));
    const total = lines.reduce((sum, line) => sum + line.amount, 0);
    return {
      id: `upcoming_${newId("in")}`,
      object: "invoice",
      status: "draft",
      customer: subscription.customer,
      currency: subscription.currency,
      amount_due: Math.max(0, total),
      subtotal: total,
      total,
      billing_reason: "subscription_update",
      lines: { object: "list", data: lines, has_more: false, url: "/v1/invoices/upcoming/lines" },
      parent: {
        type: "subscription_details",
        subscription_details: { subscription: subscription.id, metadata: { ...subscription.metadata } },
      },
      livemode: false,
    };
  }

  cancelSubscription(id: string) {
    const subscription = this.get("subscription", id);
    if (subscription.status === "canceled") throw invalidRequest("This subscription has already been canceled.");
    subscription.canceled_at = this.now();
    this.end(subscription, subscription.canceled_at);
    return subscription;
  }

  protected end(subscription: Subscription, at: number) {
    subscription.status = "canceled";
    subscription.ended_at = at;
    for (const invoice of this.invoicesOf(subscription)) invoice.next_payment_attempt = null;
    this.emit("customer.subscription.deleted", subscription);
  }

  protected invoicesOf(subscription: Subscription) {
    return this.all("invoice").filter(
      (invoice) => invoice.parent.subscription_details.subscription === subscription.id,
    );
  }

  // Invoices

  protected openInvoice(
    subscription: Subscription,
    reason: Invoice["billing_reason"],
    usage: Period,
    service: Period,
    amount?: number,
    prorations?: Proration[],
  ) {
    const customer = this.get("customer", subscription.customer);
    const item = subscription.items.data[0]!;
    const lines = prorations ?? [
      {
        amount: amount ?? item.price.unit_amount * item.quantity,
        description: null,
        period: service,
        proration: false,
      },
    ];
    const total = lines.reduce((sum, line) => sum + line.amount, 0);
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
        data: lines.map((line) => this.invoiceLine(subscription, line)),
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

  private invoiceLine(subscription: Subscription, line: Proration): InvoiceLine {
    return {
      id: newId("il"),
      object: "line_item",
      amount: line.amount,
      currency: subscription.currency,
      description: line.description,
      period: line.period,
      parent: {
        type: "subscription_item_details",
        subscription_item_details: {
          subscription: subscription.id,
          subscription_item: subscription.items.data[0]!.id,
          proration: line.proration,
        },
      },
    };
  }

  protected paymentOf(invoice: Invoice) {
    return this.paymentsOf(invoice.id)[0];
  }

  /** Charges the invoice's payment intent on the given card, or the subscription's or customer's default one. */
  protected collect(invoice: Invoice, options: { offSession: boolean; paymentMethod?: string }) {
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

  protected markPaid(invoice: Invoice) {
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
  protected settleInvoice(intent: PaymentIntent) {
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
    const payments = invoice ? this.paymentsOf(invoice) : this.all("invoice_payment");
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
}
