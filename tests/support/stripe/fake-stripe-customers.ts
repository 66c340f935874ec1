import {
  type Customer,
  type PaymentMethod,
  TEST_CARDS,
  cardError,
  changedAttributes,
  luhnValid,
  newId,
  snapshot,
} from "./fake-stripe-objects";
import {
  type FormParams,
  invalidRequest,
  readInteger,
  readMetadata,
  readObject,
  readText,
  required,
} from "./request-params";
import { StripeStore } from "./fake-stripe-store";

/** Customers and their payment methods. */
export abstract class CustomersState extends StripeStore {
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

  protected readDefaultMethod(customer: Customer, params: FormParams) {
    const param = "invoice_settings[default_payment_method]";
    const settings = readObject(params, "invoice_settings");
    const id = settings && readText(settings, "default_payment_method", param);
    if (id === undefined) return undefined;
    return id ? this.attachedMethod(customer.id, id, param).id : null;
  }

  protected attachedMethod(customerId: string, id: string, param: string) {
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
      setUpForFutureUse: false,
      usedWithoutCustomer: false,
    });
    return method;
  }

  attachPaymentMethod(id: string, params: FormParams) {
    const customer = this.get("customer", required(readText(params, "customer"), "customer"), "customer");
    return this.attach(this.get("payment_method", id), customer);
  }

  protected attach(method: PaymentMethod, customer: Customer) {
    if (method.customer === customer.id) return method;
    this.assertAttachable(method);
    method.customer = customer.id;
    this.emit("payment_method.attached", method);
    return method;
  }

  protected assertAttachable(method: PaymentMethod) {
    if (method.customer) {
      throw invalidRequest(
        "The payment method you provided has already been attached to a customer.",
        "payment_method",
      );
    }
    if (this.cards.get(method.id)?.usedWithoutCustomer) throw this.consumedMethod();
  }

  protected consumedMethod() {
    return invalidRequest(
      "This PaymentMethod was previously used without being attached to a Customer or was detached from a Customer, and may not be used again.",
      "payment_method",
    );
  }
}
