import type { Route } from "./+types/fast-track-payment.$orderId.open";
import { database } from "~/db/client.server";
import { paymentRefusal } from "~/features/booking/checkout.server";
import { openOrderPayment } from "~/features/booking/hosted-checkout.server";
import { CONSENT_REQUIRED, startConsentShape } from "~/features/booking/start-consent";
import { readFormData } from "~/lib/form-data.server";
import { z } from "~/lib/zod";
import { paymentGateway } from "~/features/payments/live-gateway.server";
import { PROVIDER_UNREACHABLE } from "~/features/payments/payment-answers";
import { siteOrigin } from "~/lib/site-origin.server";
import { countClientRequest, TOO_MANY_REQUESTS, tooManyRequests } from "~/lib/rate-limit.server";
import { nudgeOutbox } from "~/platform/mail/outbox-worker.server";
import { logger } from "~/logger.server";

const startConsent = z.object(startConsentShape);

const refuse = (status: number, error: string) => Response.json({ error }, { status });

/**
 * Opens the order's payment at the provider (Stripe mode): the payment page's script asks for it
 * when the card holder presses the button, then confirms it in the browser with the card fields.
 */
export async function action({ request, params }: Route.ActionArgs) {
  const gateway = paymentGateway();
  if (gateway.kind !== "hosted-card") return refuse(404, "Not Found");
  const { db } = database();
  const limit = await countClientRequest(db, "payment", request);
  if (limit.limited) return Response.json({ error: TOO_MANY_REQUESTS }, tooManyRequests(limit));
  const consent = startConsent.safeParse({ consent: (await readFormData(request)).get("consent") ?? undefined });
  if (!consent.success) return refuse(400, CONSENT_REQUIRED);
  try {
    const opened = await openOrderPayment(db, gateway, {
      orderId: params.orderId,
      origin: siteOrigin(),
      consentedAt: new Date(),
    });
    if (opened.kind === "open") return Response.json({ clientSecret: opened.clientSecret });
    // The bank already has it: the page's own post then shows the booking.
    if (opened.kind === "paid") {
      if (!opened.alreadyPaid) nudgeOutbox();
      return Response.json({ settled: true });
    }
    // Pending too: the page's post then says the bank is still deciding.
    if (opened.kind === "pending") return Response.json({ settled: true });
    const { status, message } = paymentRefusal(opened);
    return refuse(status, message);
  } catch (error) {
    logger.error({ err: error, orderId: params.orderId }, "payment could not be opened");
    return refuse(503, PROVIDER_UNREACHABLE);
  }
}

export function loader() {
  return new Response("Not Found", { status: 404 });
}
