import type { Route } from "./+types/account.pay";
import { PageHeading } from "~/components/layout/page-heading";
import { NOTHING_DUE } from "~/features/account/account-actions.server";
import { hostedCardPage, hostedCardPost, PROVIDER_UNREACHABLE_TOAST } from "~/features/account/hosted-card-page.server";
import { privatePageHeaders } from "~/features/account/private-page";
import { providerFee, settleProviderFee } from "~/features/account/provider-fee.server";
import { FeePaymentForm } from "~/features/account/ui/fee-payment-form";
import { formatAmount } from "~/lib/currency";
import { siteOrigin } from "~/lib/site-origin.server";
import { redirectWithToast } from "~/lib/toast.server";
import { logger } from "~/logger.server";
import { NOINDEX, pageMeta } from "~/platform/seo/page-meta";

export const headers = privatePageHeaders;

export const meta: Route.MetaFunction = () => [...pageMeta({ title: "Pay your membership fee" }), NOINDEX];

export async function loader({ request }: Route.LoaderArgs) {
  const { user, gateway, db } = await hostedCardPage(request, "/account");
  let fee;
  try {
    fee = await providerFee(db, gateway, user);
  } catch (error) {
    logger.warn({ err: error }, "the fee page could not read the open fee from the payment provider");
    throw redirectWithToast("/account", PROVIDER_UNREACHABLE_TOAST);
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
  const post = await hostedCardPost(request, "invoiceRef", "/account/pay");
  if ("refused" in post) return post.refused;
  const { user, gateway, db, ref } = post;
  try {
    return redirectWithToast(
      "/account",
      await settleProviderFee(db, gateway, user, { invoiceRef: ref, now: new Date(), origin: siteOrigin() }),
    );
  } catch (error) {
    logger.warn({ err: error }, "a paid fee could not be read from the payment provider");
    return redirectWithToast("/account", {
      ...PROVIDER_UNREACHABLE_TOAST,
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
