import { redirect } from "react-router";
import type { Route } from "./+types/account.pay";
import { PageHeading } from "~/components/layout/page-heading";
import { ACCOUNT_SIGN_IN_PATH } from "~/components/layout/nav-links";
import { database } from "~/db/client.server";
import { NOTHING_DUE } from "~/features/account/account-actions.server";
import { privatePageHeaders } from "~/features/account/private-page";
import { providerFee, settleProviderFee } from "~/features/account/provider-fee.server";
import { FeePaymentForm } from "~/features/account/ui/fee-payment-form";
import { getOptionalUser } from "~/features/auth/guards.server";
import { paymentGateway } from "~/features/payments/live-gateway.server";
import { PROVIDER_UNREACHABLE } from "~/features/payments/payment-answers";
import { formatAmount } from "~/lib/currency";
import { readFormData } from "~/lib/form-data.server";
import { countClientRequest, TOO_MANY_REQUESTS } from "~/lib/rate-limit.server";
import { siteOrigin } from "~/lib/site-origin.server";
import { redirectWithToast } from "~/lib/toast.server";
import { logger } from "~/logger.server";
import { NOINDEX, pageMeta } from "~/platform/seo/page-meta";

export const headers = privatePageHeaders;

export const meta: Route.MetaFunction = () => [...pageMeta({ title: "Pay your membership fee" }), NOINDEX];

const UNREACHABLE = {
  type: "error",
  title: "We could not reach our payment provider",
  description: PROVIDER_UNREACHABLE,
} as const;

/** Where a Stripe-billed member pays an unpaid fee, or confirms one the bank holds (the sandbox's is a button on /account). */
async function signedInHosted(request: Request) {
  const user = await getOptionalUser(request);
  if (!user) throw redirect(ACCOUNT_SIGN_IN_PATH);
  const gateway = paymentGateway();
  if (gateway.kind !== "hosted-card") throw redirect("/account");
  return { user, gateway };
}

export async function loader({ request }: Route.LoaderArgs) {
  const { user, gateway } = await signedInHosted(request);
  let fee;
  try {
    fee = await providerFee(database().db, gateway, user);
  } catch (error) {
    logger.warn({ err: error }, "the fee page could not read the open fee from the payment provider");
    throw redirectWithToast("/account", UNREACHABLE);
  }
  if (!fee) throw redirectWithToast("/account", NOTHING_DUE);
  return {
    amount: formatAmount(fee.amount, fee.currency),
    clientSecret: fee.clientSecret,
    awaitsAuthentication: fee.awaitsAuthentication,
    card: fee.card,
    invoiceRef: fee.invoiceRef,
    hostedFields: gateway.browser,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const { user, gateway } = await signedInHosted(request);
  const db = database().db;
  const limit = await countClientRequest(db, "payment", request);
  if (limit.limited) return redirectWithToast("/account/pay", { type: "error", title: TOO_MANY_REQUESTS });
  const invoiceRef = (await readFormData(request)).get("invoiceRef");
  if (typeof invoiceRef !== "string" || !/^\w{1,255}$/.test(invoiceRef)) {
    return redirectWithToast("/account", { type: "error", title: "This form could not be read. Please try again." });
  }
  try {
    return redirectWithToast(
      "/account",
      await settleProviderFee(db, gateway, user, { invoiceRef, now: new Date(), origin: siteOrigin(request) }),
    );
  } catch (error) {
    logger.warn({ err: error }, "a paid fee could not be read from the payment provider");
    return redirectWithToast("/account", {
      ...UNREACHABLE,
      description: "If your bank confirmed the payment, your membership shows it in a few minutes.",
    });
  }
}

export default function AccountPayPage({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageHeading
        title="Pay your membership fee"
        lead={
          loaderData.awaitsAuthentication
            ? `Your bank asks you to confirm the payment of ${loaderData.amount}.`
            : `Your fee of ${loaderData.amount} is unpaid.`
        }
      />
      <div className="mx-auto grid w-full max-w-2xl grid-cols-1 gap-8 px-4 pb-16 sm:px-6">
        <FeePaymentForm {...loaderData} />
      </div>
    </>
  );
}
