import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { DocumentHandle } from "~/root";
import type { Route } from "./+types/fast-track-form";
import { BookingForm } from "~/features/booking/ui/booking-form";
import { PageHeading } from "~/components/layout/page-heading";
import { useToastOnArrival } from "~/components/layout/toast-notice";
import { getOptionalUser } from "~/features/auth/guards.server";
import { database } from "~/db/client.server";
import { earliestFlightDate } from "~/features/booking/flight-date";
import { createBooking } from "~/features/booking/orders.server";
import { BOOKING_SCHEMA } from "~/features/booking/schema";
import { currencyFromRequest } from "~/lib/currency.server";
import { pageMeta } from "~/features/seo/page-meta";
import { redirectWithToast } from "~/lib/toast.server";
import type { Toast } from "~/lib/toast";
import { unexpectedFields } from "~/lib/unexpected-fields";
import { countClientRequest, TOO_MANY_REQUESTS, tooManyRequests } from "~/lib/rate-limit.server";
import { logger } from "~/logger.server";
import { readFormData } from "~/lib/form-data.server";
import { passRetryAfter } from "~/lib/retry-after";

export const headers = passRetryAfter;

export const handle = { hydrate: false } satisfies DocumentHandle;

export const meta: Route.MetaFunction = (args) => pageMeta({ title: "Book Your Fast Track" }, args);

export function loader() {
  return { idempotencyKey: crypto.randomUUID(), earliestFlightDate: earliestFlightDate(new Date()) };
}

const FAILED_TO_CREATE = "Failed to create booking. Please try again.";

export async function action({ request }: Route.ActionArgs) {
  const formData = await readFormData(request);
  const schema = BOOKING_SCHEMA;
  const submission = parseWithZod(formData, { schema });
  const unexpected = unexpectedFields(formData, Object.keys(schema.shape));
  if (unexpected.length > 0) {
    const formErrors = [
      `This form carried fields we do not accept (${unexpected.join(", ")}): prices and currency are set by us. Please reload the page and try again.`,
    ];
    return data({ result: submission.reply({ formErrors }), toast: null }, { status: 400 });
  }
  if (submission.status !== "success") return data({ result: submission.reply(), toast: null }, { status: 400 });
  const limit = await countClientRequest(database().db, "publicForms", request);
  if (limit.limited) {
    const result = submission.reply({ formErrors: [TOO_MANY_REQUESTS] });
    return data({ result, toast: null }, tooManyRequests(limit));
  }

  try {
    const { orderId } = await createBooking(database().db, {
      booking: submission.value,
      currency: currencyFromRequest(request),
      userId: (await getOptionalUser(request))?.id ?? null,
    });
    return redirectWithToast(`/fast-track-payment/${orderId}`, {
      type: "success",
      title: "Success",
      description: "Your Fast Track booking has been created.",
    });
  } catch (error) {
    logger.error({ err: error }, "booking insert failed");
    const toast: Toast = { type: "error", title: "Error", description: FAILED_TO_CREATE };
    return data({ result: submission.reply({ formErrors: [FAILED_TO_CREATE] }), toast }, { status: 500 });
  }
}

export default function FastTrackFormPage({ loaderData, actionData }: Route.ComponentProps) {
  useToastOnArrival(actionData?.toast);
  return (
    <>
      <PageHeading title="Book Your Fast Track" lead="Tell us who is travelling and when; you pay on the next step." />
      <BookingForm
        lastResult={actionData?.result}
        idempotencyKey={loaderData.idempotencyKey}
        earliestFlightDate={loaderData.earliestFlightDate}
      />
    </>
  );
}
