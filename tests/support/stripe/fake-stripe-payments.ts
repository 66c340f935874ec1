import {
  AUTHENTICATION_FAILED,
  AUTHENTICATION_REQUIRED,
  type Charge,
  DECLINED,
  NO_FUNDS,
  type PaymentIntent,
  type PaymentMethod,
  type Refund,
  type SetupIntent,
  cardError,
  changedAttributes,
  newId,
  randomToken,
  snapshot,
} from "./fake-stripe-objects";
import {
  type FormParams,
  invalidRequest,
  readBoolean,
  readInteger,
  readMetadata,
  readStrings,
  readText,
  required,
} from "./request-params";
import { CustomersState } from "./fake-stripe-customers";

/** Payment intents, their charges and refunds; setup intents, which keep a card without a payment. */
export abstract class PaymentsState extends CustomersState {
  /** A payment intent of an invoice has settled: billing records what it means for the invoice. */
  protected abstract settleInvoice(intent: PaymentIntent): void;

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

  protected readSetupFutureUsage(params: FormParams) {
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
    // Stripe takes it on confirmation too (Stripe.js's confirmCardPayment passes it): the card is then kept.
    if (params.setup_future_usage !== undefined) intent.setup_future_usage = this.readSetupFutureUsage(params);
    return this.confirmIntent(
      intent,
      readText(params, "payment_method") || null,
      readBoolean(params, "off_session") ?? false,
    );
  }

  protected confirmIntent(intent: PaymentIntent, methodId: string | null, offSession: boolean) {
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
  protected charge(
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
      : card.kind === "declines" || card.kind === "attaches_then_declines"
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

  // Setup intents

  createSetupIntent(params: FormParams) {
    const customer = readText(params, "customer") || null;
    if (customer) this.get("customer", customer, "customer");
    const usage = readText(params, "usage") ?? "off_session";
    if (usage !== "off_session" && usage !== "on_session") {
      throw invalidRequest("Invalid usage: must be one of on_session or off_session", "usage");
    }
    const id = newId("seti");
    const intent = this.put<SetupIntent>({
      id,
      object: "setup_intent",
      status: "requires_payment_method",
      client_secret: `${id}_secret_${randomToken(25)}`,
      customer,
      payment_method: null,
      payment_method_types: readStrings(params, "payment_method_types").length
        ? readStrings(params, "payment_method_types")
        : ["card"],
      usage,
      last_setup_error: null,
      next_action: null,
      metadata: readMetadata(params),
      created: this.now(),
      livemode: false,
    });
    this.emit("setup_intent.created", intent);
    return intent;
  }

  /** The setup intent as the publishable key may see it: only with its client secret. */
  setupIntentForClient(id: string, clientSecret: string | undefined) {
    const intent = this.get("setup_intent", id);
    if (clientSecret !== intent.client_secret) {
      throw invalidRequest(
        "The client_secret provided does not match any associated SetupIntent on this account.",
        "client_secret",
      );
    }
    return intent;
  }

  /**
   * Checks the card with its bank, as Stripe's test cards say: declining cards fail, cards that
   * want 3-D Secure wait for it, and the others (0341 too: it only declines charges) are kept.
   */
  confirmSetupIntent(id: string, params: FormParams) {
    const intent = this.get("setup_intent", id);
    if (intent.status === "succeeded" || intent.status === "canceled") {
      throw invalidRequest(
        `You cannot confirm this SetupIntent because it has a status of ${intent.status}.`,
        undefined,
        "setup_intent_unexpected_state",
      );
    }
    const methodId = readText(params, "payment_method") || intent.payment_method;
    const method = this.get("payment_method", methodId, "payment_method");
    intent.payment_method = method.id;
    intent.last_setup_error = null;
    intent.next_action = null;
    const card = this.cards.get(method.id)!;
    if (card.kind === "declines" || card.kind === "insufficient_funds") {
      const failure = card.kind === "declines" ? DECLINED : NO_FUNDS;
      intent.status = "requires_payment_method";
      intent.last_setup_error = { type: "card_error", ...failure, payment_method: snapshot(method) };
      this.emit("setup_intent.setup_failed", intent);
      throw cardError(402, failure, { setup_intent: snapshot(intent), payment_method: snapshot(method) });
    }
    if (card.kind === "authenticates" || card.kind === "authenticates_until_set_up") {
      intent.status = "requires_action";
      intent.next_action = {
        type: "use_stripe_sdk",
        use_stripe_sdk: {
          type: "three_d_secure_redirect",
          stripe_js: `${this.hooks.origin}/v1/setup_intents/${intent.id}/authenticate`,
        },
      };
      this.emit("setup_intent.requires_action", intent);
      return intent;
    }
    return this.setUp(intent, method);
  }

  /** A fake-only step: the outcome of the 3-D Secure dialog for a setup intent. */
  authenticateSetupIntent(id: string, params: FormParams) {
    const intent = this.get("setup_intent", id);
    if (intent.status !== "requires_action") {
      throw invalidRequest(
        `This SetupIntent is ${intent.status}, not waiting for authentication.`,
        undefined,
        "setup_intent_unexpected_state",
      );
    }
    const method = this.get("payment_method", intent.payment_method);
    const result = readText(params, "result");
    if (result === "succeed") return this.setUp(intent, method);
    if (result !== "fail") throw invalidRequest("Invalid result: must be one of succeed or fail", "result");
    intent.status = "requires_payment_method";
    intent.next_action = null;
    intent.last_setup_error = {
      type: "invalid_request_error",
      code: "setup_intent_authentication_failure",
      message: AUTHENTICATION_FAILED,
      payment_method: snapshot(method),
    };
    this.emit("setup_intent.setup_failed", intent);
    return intent;
  }

  protected setUp(intent: SetupIntent, method: PaymentMethod) {
    if (intent.customer) this.attach(method, this.get("customer", intent.customer));
    this.cards.get(method.id)!.setUpForFutureUse = true;
    intent.status = "succeeded";
    intent.next_action = null;
    this.emit("setup_intent.succeeded", intent);
    return intent;
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
}
