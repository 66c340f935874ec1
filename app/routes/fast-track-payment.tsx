import { data } from "react-router";
import type { Route } from "./+types/fast-track-payment";
import { BookingConfirmation } from "~/features/booking/ui/booking-confirmation";
import { Checkout } from "~/features/booking/ui/checkout";
import { OrderNotFound } from "~/features/booking/ui/order-not-found";
import { database } from "~/db/client.server";
import { payForOrder } from "~/features/booking/checkout.server";
import { isPaidStatus } from "~/features/booking/order-status";
import { findOrder } from "~/features/booking/orders.server";
import { mayStartTrial, trialStartedBy } from "~/features/memberships/enrolment.server";
import { voucherFor } from "~/features/booking/voucher.server";
import { publicOrigin } from "~/lib/public-origin.server";
import { cardSchema, expiryYears } from "~/features/payments/card";
import { sandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { NOINDEX, pageMeta } from "~/features/seo/page-meta";
import { redirectWithToast } from "~/lib/toast.server";
import { nudgeOutbox } from "~/features/mail/outbox-worker.server";
import { handleFormAction } from "~/lib/form-action.server";
import { passRetryAfter } from "~/lib/retry-after";

export const headers = passRetryAfter;

export const meta: Route.MetaFunction = ({ data: page }) => [
  ...pageMeta({ title: !page?.order ? "Order not found" : page.voucher ? "Booking Confirmed" : "Checkout" }),
  NOINDEX,
];

export async function loader({ params, request }: Route.LoaderArgs) {
  const { db } = database();
  const order = await findOrder(db, params.orderId);
  const none = { voucher: null, trial: null, expiryYears: [], startsTrial: false };
  if (!order) return data({ ...none, order: null }, { status: 404 });
  if (isPaidStatus(order.status)) {
    const [voucher, trial] = await Promise.all([voucherFor(request, order.id), trialStartedBy(db, order.id)]);
    return data({ ...none, order, voucher, trial });
  }
  // Told before payment: whether paying this order starts the address's free trial.
  const startsTrial = await mayStartTrial(db, order.email);
  return data({ ...none, order, expiryYears: expiryYears(new Date()), startsTrial });
}

/** Never sent back to the browser, not even to refill the form after a refusal. */
const CARD_SECRETS = ["cardNumber", "cvv"];

export function action({ request, params }: Route.ActionArgs) {
  return handleFormAction({
    request,
    form: "payment",
    logContext: { orderId: params.orderId },
    schema: cardSchema(new Date()),
    rateLimit: "payment",
    refuseUnexpectedFields: "the amount is set by us",
    hideFields: CARD_SECRETS,
    refusalData: () => ({ attempt: crypto.randomUUID() }),
    save: ({ cardNumber, expiryMonth, expiryYear, cvv }) =>
      payForOrder(database().db, sandboxGateway, {
        orderId: params.orderId,
        card: { number: cardNumber, expiryMonth, expiryYear, cvv },
        origin: publicOrigin(request),
      }),
    failure: { log: "payment failed", formError: "Payment failed. Please try again." },
    answer(payment, { refuse }) {
      switch (payment.kind) {
        case "not-found":
          return refuse(404, ["Order not found"]);
        case "declined":
          return refuse(402, [payment.message]);
        case "not-payable":
          return refuse(409, [`This order is ${payment.status} and can no longer be paid.`]);
        case "paid":
          if (!payment.alreadyPaid) nudgeOutbox();
          return redirectWithToast(
            `/fast-track-payment/${params.orderId}`,
            payment.alreadyPaid
              ? {
                  type: "info",
                  title: "Already paid",
                  description: "This order was already paid. Nothing more was charged.",
                }
              : { type: "success", title: "Payment successful", description: "Your Fast Track is booked." },
          );
      }
    },
  });
}

export default function FastTrackPaymentPage({ loaderData, actionData }: Route.ComponentProps) {
  const { order, voucher } = loaderData;
  if (!order) return <OrderNotFound />;
  if (voucher) return <BookingConfirmation order={order} voucher={voucher} trial={loaderData.trial} />;
  return (
    <Checkout
      order={order}
      expiryYears={loaderData.expiryYears}
      startsTrial={loaderData.startsTrial}
      lastResult={actionData?.result}
      attempt={actionData?.attempt}
    />
  );
}
