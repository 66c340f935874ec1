import { data } from "react-router";
import type { Route } from "./+types/fast-track-payment.$orderId";
import { BookingConfirmation } from "~/features/booking/ui/booking-confirmation";
import { Checkout } from "~/features/booking/ui/checkout";
import { OrderNotFound } from "~/features/booking/ui/order-not-found";
import { database } from "~/db/client.server";
import { isDatabaseUnavailable } from "~/db/connection-errors";
import {
  confirmFreeBooking,
  isFreeBooking,
  paymentRefusal,
  payForOrder,
  type SettledPayment,
} from "~/features/booking/checkout.server";
import { FreeBookingForm, freeBookingSchema } from "~/features/booking/ui/free-booking-form";
import { settleOrderPayment } from "~/features/booking/hosted-checkout.server";
import { isPaidStatus } from "~/features/booking/order-status";
import type { OrderDetails } from "~/features/booking/order-details";
import { findOrder } from "~/features/booking/orders.server";
import { mayStartTrial, trialStartedBy } from "~/features/memberships/enrolment.server";
import { voucherFor } from "~/features/booking/voucher.server";
import { siteOrigin } from "~/lib/site-origin.server";
import { CARD_SECRETS, expiryYears } from "~/features/payments/card";
import { orderTerms } from "~/features/booking/order-terms";
import type { CardFormGateway, HostedCardGateway } from "~/features/payments/gateway";
import { paymentGateway } from "~/features/payments/live-gateway.server";
import { cardPaymentSchema, PaymentForm } from "~/features/booking/ui/payment-form";
import { StripePaymentForm } from "~/features/booking/ui/stripe-payment-form";
import { z } from "~/lib/zod";
import { NOINDEX, pageMeta } from "~/platform/seo/page-meta";
import { redirectWithToast } from "~/lib/toast.server";
import { nudgeOutbox } from "~/platform/mail/outbox-worker.server";
import { handleFormAction } from "~/lib/form-action.server";
import { passRetryAfter } from "~/lib/retry-after";

export const headers = passRetryAfter;

export const meta: Route.MetaFunction = ({ data: page }) => [
  ...pageMeta({ title: !page?.order ? "Order not found" : page.voucher ? "Booking Confirmed" : "Checkout" }),
  NOINDEX,
];

export async function loader({ params }: Route.LoaderArgs) {
  const { db } = database();
  const order = await findOrder(db, params.orderId);
  const none = {
    voucher: null,
    trial: null,
    expiryYears: [],
    startsTrial: false,
    hostedFields: null,
    terms: null,
    free: false,
  };
  if (!order) return data({ ...none, order: null }, { status: 404 });
  if (isPaidStatus(order.status)) {
    const [voucher, trial] = await Promise.all([voucherFor(siteOrigin(), order), trialStartedBy(db, order.id)]);
    return data({ ...none, order, voucher, trial });
  }
  const now = new Date();
  if (isFreeBooking(order)) {
    return data({ ...none, order, free: true, terms: orderTerms(order, { startsTrial: false, now }) });
  }
  // Told before payment: whether paying this order starts the address's free trial.
  const startsTrial = await mayStartTrial(db, order.email);
  const unpaid = { ...none, order, startsTrial, terms: orderTerms(order, { startsTrial, now }) };
  const gateway = paymentGateway();
  if (gateway.kind === "hosted-card") return data({ ...unpaid, hostedFields: gateway.browser });
  return data({ ...unpaid, expiryYears: expiryYears(now) });
}

export async function action({ request, params }: Route.ActionArgs) {
  const order = await orderIfAnswered(params.orderId);
  if (order && isFreeBooking(order)) return confirmFree(request, order);
  const gateway = paymentGateway();
  return gateway.kind === "hosted-card"
    ? settleHostedPayment(request, params.orderId, gateway)
    : payByCard(request, params.orderId, gateway, order);
}

/** The sandbox: the card typed into our own form; `order` as the action read it (undefined: not read). */
function payByCard(
  request: Request,
  orderId: string,
  gateway: CardFormGateway,
  order: OrderDetails | null | undefined,
) {
  return handleFormAction({
    request,
    form: "payment",
    logContext: { orderId },
    schema: cardPaymentSchema(new Date()),
    rateLimit: "payment",
    refuseUnexpectedFields: "the amount is set by us",
    hideFields: CARD_SECRETS,
    refusalData: () => ({ attempt: crypto.randomUUID() }),
    save: ({ cardNumber, expiryMonth, expiryYear, cvv }) =>
      payForOrder(database().db, gateway, {
        orderId,
        order,
        card: { number: cardNumber, expiryMonth, expiryYear, cvv },
        origin: siteOrigin(),
        consentedAt: new Date(),
      }),
    failure: { log: "payment failed", formError: "Payment failed. Please try again." },
    answer: (payment, { refuse }) => answerPayment(orderId, payment, refuse),
  });
}

/**
 * The order, read once for the whole action: whether it costs nothing, then what the payment pays.
 * A database that is down gives undefined, taken as "not free": the card's form then says so as it
 * says it for every form (503, try again), and it refuses a free order anyway.
 */
async function orderIfAnswered(orderId: string): Promise<OrderDetails | null | undefined> {
  try {
    return await findOrder(database().db, orderId);
  } catch (error) {
    if (isDatabaseUnavailable(error)) return undefined;
    throw error;
  }
}

/** A booking the member's free accesses cover: the consent alone, no card, no gateway (ADR 029). */
function confirmFree(request: Request, order: OrderDetails) {
  const orderId = order.id;
  return handleFormAction({
    request,
    form: "payment",
    logContext: { orderId },
    schema: freeBookingSchema,
    rateLimit: "payment",
    refuseUnexpectedFields: "the amount is set by us",
    save: () => confirmFreeBooking(database().db, { orderId, order, origin: siteOrigin(), consentedAt: new Date() }),
    failure: {
      log: "free booking could not be confirmed",
      formError: "We could not confirm your booking. Please try again.",
    },
    answer: (payment, { refuse }) => answerPayment(orderId, payment, refuse),
  });
}

/**
 * Stripe: the browser confirmed the payment with Stripe's card fields and posts nothing but that it
 * is done; the order is settled by what Stripe says of it.
 */
function settleHostedPayment(request: Request, orderId: string, gateway: HostedCardGateway) {
  return handleFormAction({
    request,
    form: "payment",
    logContext: { orderId },
    schema: z.object({}),
    // Counted when it was opened (./open): one payment counts once.
    rateLimit: null,
    save: () => settleOrderPayment(database().db, gateway, { by: { orderId }, origin: siteOrigin() }),
    failure: {
      log: "payment could not be settled",
      formError:
        "We could not confirm your payment with the bank yet. Reload this page in a minute; nothing more will be charged.",
    },
    answer: (payment, { refuse }) => answerPayment(orderId, payment, refuse),
  });
}

function answerPayment<Refusal>(
  orderId: string,
  payment: SettledPayment,
  refuse: (status: number, formErrors: string[]) => Refusal,
) {
  if (payment.kind !== "paid") {
    const { status, message } = paymentRefusal(payment);
    return refuse(status, [message]);
  }
  if (!payment.alreadyPaid) nudgeOutbox();
  return redirectWithToast(
    `/fast-track-payment/${orderId}`,
    payment.alreadyPaid
      ? {
          type: "info",
          title: "Already paid",
          description: "This order was already paid. Nothing more was charged.",
        }
      : { type: "success", title: "Payment successful", description: "Your Fast Track is booked." },
  );
}

export default function FastTrackPaymentPage({ loaderData, actionData }: Route.ComponentProps) {
  const { order, voucher } = loaderData;
  if (!order) return <OrderNotFound />;
  if (voucher) return <BookingConfirmation order={order} voucher={voucher} trial={loaderData.trial} />;
  const { terms } = loaderData;
  if (!terms) return null;
  return (
    <Checkout order={order} startsTrial={loaderData.startsTrial}>
      {loaderData.free ? (
        <FreeBookingForm lastResult={actionData?.result} terms={terms} />
      ) : loaderData.hostedFields ? (
        <StripePaymentForm
          orderId={order.id}
          hostedFields={loaderData.hostedFields}
          lastResult={actionData?.result}
          terms={terms}
        />
      ) : (
        <PaymentForm
          key={actionData && "attempt" in actionData ? String(actionData.attempt) : undefined}
          lastResult={actionData?.result}
          expiryYears={loaderData.expiryYears}
          terms={terms}
        />
      )}
    </Checkout>
  );
}
