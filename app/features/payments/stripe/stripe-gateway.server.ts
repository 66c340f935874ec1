import type Stripe from "stripe";
import type { MembershipPlan } from "~/db/schema";
import type { CurrencyCode } from "~/lib/currency";
import type { HostedCardGateway, HostedPayment, ProviderPlanRequest } from "../gateway";
import { priceLookupKey } from "./stripe-prices";

const STATUSES: Record<Stripe.PaymentIntent.Status, HostedPayment["status"]> = {
  succeeded: "succeeded",
  processing: "processing",
  // We never ask for a separate capture; an authorised payment is the bank's yes.
  requires_capture: "processing",
  requires_payment_method: "needs-card",
  requires_confirmation: "needs-action",
  requires_action: "needs-action",
  canceled: "cancelled",
};

/** Stripe's brand names, as our pages and payments table write them. */
const BRANDS: Record<string, string> = { visa: "Visa", mastercard: "Mastercard", amex: "American Express" };

export interface StripeGatewaySettings {
  publishableKey: string;
  /** Where the browser loads Stripe.js from. */
  scriptUrl: string;
}

/** Stripe, through its core APIs only (ADR 018): payment intents, customers, refunds. */
export function createStripeGateway(
  stripe: Stripe,
  { publishableKey, scriptUrl }: StripeGatewaySettings,
): HostedCardGateway {
  async function paymentMethodOf(intent: Stripe.PaymentIntent) {
    const method = intent.payment_method ?? intent.last_payment_error?.payment_method;
    if (!method) return undefined;
    return typeof method === "string" ? stripe.paymentMethods.retrieve(method) : method;
  }

  async function quarterlyPrice(plan: MembershipPlan, currency: CurrencyCode) {
    const lookupKey = priceLookupKey(plan, currency);
    const { data } = await stripe.prices.list({ lookup_keys: [lookupKey], active: true });
    // Checked again here: a Stripe-compatible server may ignore the filter.
    const price = data.find((candidate) => candidate.lookup_key === lookupKey);
    if (!price) throw new Error(`Stripe has no price "${lookupKey}": run npm run stripe:setup`);
    return price;
  }

  async function planItem({ subscriptionRef, plan, currency }: ProviderPlanRequest) {
    const [subscription, price] = await Promise.all([
      stripe.subscriptions.retrieve(subscriptionRef),
      quarterlyPrice(plan, currency),
    ]);
    const item = subscription.items.data[0];
    if (!item) throw new Error(`Stripe subscription ${subscriptionRef} has no item`);
    return { id: item.id, price: price.id };
  }

  return {
    name: "stripe",
    kind: "hosted-card",
    browser: { publishableKey, scriptUrl },

    async openPayment({ orderId, amount, currency, idempotencyKey, saveCardFor }) {
      // Before any money moves: a payment that starts a membership needs its price.
      if (saveCardFor) await quarterlyPrice(saveCardFor.plan, currency);
      const customer = saveCardFor
        ? await stripe.customers.create(
            { email: saveCardFor.email, metadata: { orderId } },
            { idempotencyKey: saveCardFor.idempotencyKey },
          )
        : undefined;
      const intent = await stripe.paymentIntents.create(
        {
          amount,
          currency: currency.toLowerCase(),
          metadata: { orderId },
          // Kept for the membership's fees, charged later with nobody present.
          ...(customer && { customer: customer.id, setup_future_usage: "off_session" }),
        },
        { idempotencyKey },
      );
      return { ref: intent.id, clientSecret: clientSecretOf(intent), customerRef: customer?.id };
    },

    async readPayment(ref) {
      // The card comes along (one call, not two); a server that does not expand gives its id.
      const intent = await stripe.paymentIntents.retrieve(ref, { expand: ["payment_method"] });
      const method = await paymentMethodOf(intent);
      const customer = intent.customer;
      return {
        ref: intent.id,
        clientSecret: clientSecretOf(intent),
        status: STATUSES[intent.status] ?? "needs-action",
        amount: intent.amount,
        currency: intent.currency.toUpperCase(),
        orderId: intent.metadata?.orderId,
        customerRef: typeof customer === "string" ? customer : customer?.id,
        ...(method?.card && {
          card: { brand: BRANDS[method.card.brand] ?? method.card.brand, last4: method.card.last4, ref: method.id },
        }),
        ...(intent.last_payment_error?.message && { failure: intent.last_payment_error.message }),
      };
    },

    async subscribe({ customerRef, paymentMethodRef, plan, currency, trialEndsAt, idempotencyKey, startedBy }) {
      const price = await quarterlyPrice(plan, currency);
      await stripe.customers.update(customerRef, { invoice_settings: { default_payment_method: paymentMethodRef } });
      const subscription = await stripe.subscriptions.create(
        {
          customer: customerRef,
          items: [{ price: price.id }],
          trial_end: toUnix(trialEndsAt),
          default_payment_method: paymentMethodRef,
          metadata: startedBy,
        },
        { idempotencyKey },
      );
      if (!subscription.trial_end) throw new Error(`Stripe started subscription ${subscription.id} without a trial`);
      return { ref: subscription.id, trialEndsAt: new Date(subscription.trial_end * 1000) };
    },

    async cancelSubscription(ref) {
      await stripe.subscriptions.cancel(ref);
    },

    async cancelSubscriptionAtPeriodEnd(ref) {
      await stripe.subscriptions.update(ref, { cancel_at_period_end: true });
    },

    async cancelSubscriptionAt(ref, at) {
      await stripe.subscriptions.update(ref, {
        cancel_at: toUnix(at),
        proration_behavior: "none",
      });
    },

    async readSubscription(ref) {
      const subscription = await stripe.subscriptions.retrieve(ref);
      const item = subscription.items.data[0];
      // Since API 2025-03-31 the period lives on the item; older servers keep it on the subscription.
      const legacy = subscription as unknown as { current_period_start?: number; current_period_end?: number };
      const start = item?.current_period_start ?? legacy.current_period_start ?? subscription.start_date;
      const end = item?.current_period_end ?? legacy.current_period_end ?? subscription.trial_end ?? start;
      return {
        ref: subscription.id,
        status: subscription.status,
        // A set end date before the period's end (cancel_at) ends it too, without renewal.
        cancelAtPeriodEnd: subscription.cancel_at_period_end || subscription.cancel_at !== null,
        ...(subscription.cancel_at !== null &&
          subscription.cancel_at < end && { cancelAt: fromUnix(subscription.cancel_at) }),
        currentPeriodStart: fromUnix(start),
        currentPeriodEnd: fromUnix(end),
        orderId: subscription.metadata?.orderId,
        email: subscription.metadata?.email,
      };
    },

    async readRefunds(chargeRef) {
      const charge = await stripe.charges.retrieve(chargeRef);
      const refunds = await stripe.refunds.list({ charge: chargeRef, limit: 100 });
      return {
        paymentRef: idOf(charge.payment_intent),
        refunds: refunds.data
          .filter((refund) => refund.status === "succeeded" || refund.status === "pending")
          .map((refund) => ({
            providerRef: refund.id,
            amount: refund.amount,
            ...(refund.metadata?.refund_key && { idempotencyKey: refund.metadata.refund_key }),
          })),
      };
    },

    async readInvoice(ref) {
      const invoice = await stripe.invoices.retrieve(ref, { expand: ["payments"] });
      const legacy = invoice as unknown as {
        subscription?: string | { id: string };
        payment_intent?: string | { id: string };
      };
      const subscription = invoice.parent?.subscription_details?.subscription ?? legacy.subscription;
      const paid = invoice.payments?.data.find((payment) => payment.status === "paid") ?? invoice.payments?.data[0];
      const period = invoice.lines?.data[0]?.period ?? { start: invoice.period_start, end: invoice.period_end };
      const paymentRef = idOf(paid?.payment.payment_intent ?? legacy.payment_intent);
      // Stripe says "open" for a declined fee and for one the bank wants confirmed; its payment tells them apart.
      const payment =
        invoice.status === "open" && invoice.attempt_count > 0 && paymentRef
          ? await stripe.paymentIntents.retrieve(paymentRef)
          : undefined;
      return {
        ref: invoice.id,
        subscriptionRef: idOf(subscription),
        status: invoice.status ?? "draft",
        amountDue: invoice.amount_due,
        currency: invoice.currency.toUpperCase(),
        periodStart: fromUnix(period.start),
        periodEnd: fromUnix(period.end),
        attempts: invoice.attempt_count,
        paymentRef,
        awaitsAuthentication: payment?.status === "requires_action",
        forPlanChange: invoice.billing_reason === "subscription_update",
      };
    },

    async openCustomer({ email, idempotencyKey }) {
      const customer = await stripe.customers.create({ email }, { idempotencyKey });
      return { ref: customer.id };
    },

    async openCardSetup({ customerRef, idempotencyKey }) {
      const setup = await stripe.setupIntents.create(
        { customer: customerRef, usage: "off_session" },
        { idempotencyKey },
      );
      if (!setup.client_secret) throw new Error(`Stripe returned setup intent ${setup.id} without a client secret`);
      return { ref: setup.id, clientSecret: setup.client_secret };
    },

    async readCardSetup(ref) {
      const setup = await stripe.setupIntents.retrieve(ref, { expand: ["payment_method"] });
      const method =
        setup.status === "succeeded" && setup.payment_method
          ? typeof setup.payment_method === "string"
            ? await stripe.paymentMethods.retrieve(setup.payment_method)
            : setup.payment_method
          : undefined;
      return {
        ref: setup.id,
        status: STATUSES[setup.status as Stripe.PaymentIntent.Status] ?? "needs-action",
        customerRef: idOf(setup.customer),
        ...(method?.card && {
          card: { brand: BRANDS[method.card.brand] ?? method.card.brand, last4: method.card.last4, ref: method.id },
        }),
      };
    },

    async useCardForFees({ customerRef, subscriptionRef, paymentMethodRef }) {
      await stripe.customers.update(customerRef, { invoice_settings: { default_payment_method: paymentMethodRef } });
      await stripe.subscriptions.update(subscriptionRef, { default_payment_method: paymentMethodRef });
    },

    async previewPlanChange({ prorationDate, ...request }) {
      const preview = await stripe.invoices.createPreview({
        subscription: request.subscriptionRef,
        subscription_details: {
          items: [await planItem(request)],
          proration_behavior: "always_invoice",
          proration_date: toUnix(prorationDate),
        },
      });
      return preview.lines.data
        .filter((line) => line.parent?.subscription_item_details?.proration)
        .reduce((sum, line) => sum + line.amount, 0);
    },

    async changeSubscriptionPlan({ idempotencyKey, prorationDate, ...request }) {
      const item = await planItem(request);
      if (!prorationDate) {
        await stripe.subscriptions.update(
          request.subscriptionRef,
          { items: [item], proration_behavior: "none" },
          { idempotencyKey },
        );
        return { outcome: "succeeded", amount: 0 };
      }
      // Stripe prorates as its preview did when given the same date; a card that is declined or
      // wants its holder's check leaves the subscription as it was (error_if_incomplete).
      const subscription = await stripe.subscriptions
        .update(
          request.subscriptionRef,
          {
            items: [item],
            proration_behavior: "always_invoice",
            proration_date: toUnix(prorationDate),
            payment_behavior: "error_if_incomplete",
          },
          { idempotencyKey },
        )
        .catch((error: Stripe.errors.StripeError) => {
          if (error.statusCode === 402) return { declined: error.message };
          throw error;
        });
      if ("declined" in subscription) return { outcome: "declined", message: subscription.declined };
      const invoiceRef = idOf(subscription.latest_invoice);
      if (!invoiceRef) return { outcome: "succeeded", amount: 0 };
      const invoice = await stripe.invoices.retrieve(invoiceRef, { expand: ["payments"] });
      const paid = invoice.payments?.data.find((payment) => payment.status === "paid");
      return {
        outcome: "succeeded",
        amount: invoice.amount_paid,
        invoiceRef,
        paymentRef: idOf(paid?.payment.payment_intent),
      };
    },

    async refund({ chargeRef, amount, idempotencyKey }) {
      const refund = await stripe.refunds.create(
        // The key in the metadata too: the webhook then knows the refund for one of ours still pending.
        { payment_intent: chargeRef, amount, metadata: { refund_key: idempotencyKey } },
        { idempotencyKey },
      );
      return { providerRef: refund.id };
    },
  };
}

function clientSecretOf(intent: Stripe.PaymentIntent) {
  if (!intent.client_secret) throw new Error(`Stripe returned payment intent ${intent.id} without a client secret`);
  return intent.client_secret;
}

const fromUnix = (seconds: number) => new Date(seconds * 1000);
const toUnix = (date: Date) => Math.floor(date.getTime() / 1000);

/** Stripe answers an id, or the object when it was expanded. */
const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === "string" ? value : (value?.id ?? undefined);
