import type { DocumentHandle } from "~/root";
import type { Route } from "./+types/fast-track-form";
import { BookingForm } from "~/features/booking/ui/booking-form";
import { PageHeading } from "~/components/layout/page-heading";
import { useToastOnArrival } from "~/components/layout/toast-notice";
import { getOptionalUser } from "~/features/auth/guards.server";
import { database } from "~/db/client.server";
import { earliestFlightDate } from "~/features/booking/flight-date";
import { createBooking } from "~/features/booking/orders.server";
import { allowanceLine, memberAllowance } from "~/features/memberships/fast-track-allowance.server";
import { BOOKING_SCHEMA } from "~/features/booking/schema";
import { currencyFromRequest } from "~/lib/currency.server";
import { pageMeta } from "~/platform/seo/page-meta";
import { redirectWithToast } from "~/lib/toast.server";
import type { Toast } from "~/lib/toast";
import { handleFormAction } from "~/lib/form-action.server";
import { passRetryAfter } from "~/lib/retry-after";

export const headers = passRetryAfter;

export const handle = { hydrate: false } satisfies DocumentHandle;

export const meta: Route.MetaFunction = (args) => pageMeta({ title: "Book Your Fast Track" }, args);

export async function loader({ request }: Route.LoaderArgs) {
  const now = new Date();
  const user = await getOptionalUser(request);
  const allowance = user ? await memberAllowance(database().db, user.email, now) : null;
  return {
    idempotencyKey: crypto.randomUUID(),
    earliestFlightDate: earliestFlightDate(now),
    // A signed-in person's form starts with their name and address; a member's says what is free.
    account: user ? { ...splitName(user.fullName ?? user.name), email: user.email } : null,
    membership: allowance && { line: allowanceLine(allowance), freeLeft: allowance.left },
  };
}

/** "Ann Marie Lee" as the form's two fields: the first word, and the rest. */
function splitName(fullName: string): { firstName: string; lastName: string } {
  const [firstName = "", ...rest] = fullName.trim().split(/\s+/);
  return { firstName, lastName: rest.join(" ") };
}

const FAILED_TO_CREATE = "Failed to create booking. Please try again.";
const NO_TOAST: { toast: Toast | null } = { toast: null };

export function action({ request }: Route.ActionArgs) {
  return handleFormAction({
    request,
    form: "booking",
    schema: BOOKING_SCHEMA,
    rateLimit: "publicForms",
    refuseUnexpectedFields: "prices and currency are set by us",
    refusalData: () => NO_TOAST,
    save: async (booking) => {
      const user = await getOptionalUser(request);
      return createBooking(database().db, {
        booking,
        currency: currencyFromRequest(request),
        userId: user?.id ?? null,
        accountEmail: user?.email ?? null,
      });
    },
    failure: {
      log: "booking insert failed",
      formError: FAILED_TO_CREATE,
      data: { toast: { type: "error", title: "Error", description: FAILED_TO_CREATE } },
    },
    answer: ({ orderId }) =>
      redirectWithToast(`/fast-track-payment/${orderId}`, {
        type: "success",
        title: "Success",
        description: "Your Fast Track booking has been created.",
      }),
  });
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
        account={loaderData.account}
        membership={loaderData.membership}
      />
    </>
  );
}
