import type { Route } from "./+types/fast-track-payment-open";
import { database } from "~/db/client.server";
import { openOrderPayment } from "~/features/booking/hosted-checkout.server";
import { paymentGateway } from "~/features/payments/live-gateway.server";
import { PROVIDER_UNREACHABLE } from "~/features/payments/payment-answers";
import { publicOrigin } from "~/lib/public-origin.server";
import { countClientRequest, TOO_MANY_REQUESTS } from "~/lib/rate-limit.server";
import { nudgeOutbox } from "~/features/mail/outbox-worker.server";
import { logger } from "~/logger.server";

const refuse = (status: number, error: string, headers?: HeadersInit) => Response.json({ error }, { status, headers });

/**
 * Opens the order's payment at the provider (Stripe mode): the payment page's script asks for it
 * when the card holder presses the button, then confirms it in the browser with the card fields.
 */
export async function action({ request, params }: Route.ActionArgs) {
  const gateway = paymentGateway();
  if (gateway.kind !== "hosted-card") return refuse(404, "Not Found");
  const { db } = database();
  const limit = await countClientRequest(db, "payment", request);
  if (limit.limited) return refuse(429, TOO_MANY_REQUESTS, { "Retry-After": String(limit.retryAfterSeconds) });
  try {
    const opened = await openOrderPayment(db, gateway, { orderId: params.orderId, origin: publicOrigin(request) });
    switch (opened.kind) {
      case "open":
        return Response.json({ clientSecret: opened.clientSecret });
      case "not-found":
        return refuse(404, "Order not found");
      case "not-payable":
        return refuse(409, `This order is ${opened.status} and can no longer be paid.`);
      case "declined":
        return refuse(402, opened.message);
      case "paid":
      case "pending":
        // The bank already has it: the page's own post then shows the booking, or why not yet.
        if (opened.kind === "paid" && !opened.alreadyPaid) nudgeOutbox();
        return Response.json({ settled: true });
    }
  } catch (error) {
    logger.error({ err: error, orderId: params.orderId }, "payment could not be opened");
    return refuse(503, PROVIDER_UNREACHABLE);
  }
}

export function loader() {
  return new Response("Not Found", { status: 404 });
}
