import { redirect } from "react-router";
import { ACCOUNT_SIGN_IN_PATH } from "~/components/layout/nav-links";
import { database } from "~/db/client.server";
import { getOptionalUser } from "~/features/auth/guards.server";
import { paymentGateway } from "~/features/payments/live-gateway.server";
import { PROVIDER_UNREACHABLE } from "~/features/payments/payment-answers";
import { readFormData } from "~/lib/form-data.server";
import { countClientRequest, TOO_MANY_REQUESTS } from "~/lib/rate-limit.server";
import { redirectWithToast } from "~/lib/toast.server";

/** When Stripe cannot be read or written: nothing was charged or changed. */
export const PROVIDER_UNREACHABLE_TOAST = {
  type: "error",
  title: "We could not reach our payment provider",
  description: PROVIDER_UNREACHABLE,
} as const;

/**
 * The member area's pages that Stripe.js runs (a fee, a card): the signed-in person and the Stripe
 * gateway. Anyone else signs in first; with the sandbox the same thing is done at `sandboxPath`.
 */
export async function hostedCardPage(request: Request, sandboxPath: string) {
  const user = await getOptionalUser(request);
  if (!user) throw redirect(ACCOUNT_SIGN_IN_PATH);
  const gateway = paymentGateway();
  if (gateway.kind !== "hosted-card") throw redirect(sandboxPath);
  return { user, gateway, db: database().db };
}

/**
 * What such a page's POST names (the provider's invoice or card setup to look at), counted against
 * the payment rate limit; a response to answer instead when it is over the limit or unreadable.
 */
export async function hostedCardPost(request: Request, field: string, path: string) {
  const { user, gateway, db } = await hostedCardPage(request, "/account");
  const limit = await countClientRequest(db, "payment", request);
  if (limit.limited) return { refused: redirectWithToast(path, { type: "error", title: TOO_MANY_REQUESTS }) };
  const ref = (await readFormData(request)).get(field);
  if (typeof ref !== "string" || !/^\w{1,255}$/.test(ref)) {
    return {
      refused: redirectWithToast("/account", {
        type: "error",
        title: "This form could not be read. Please try again.",
      }),
    };
  }
  return { user, gateway, db, ref };
}
