import { randomUUID } from "node:crypto";
import { redirect } from "react-router";
import type { Route } from "./+types/account.card";
import { PageHeading } from "~/components/layout/page-heading";
import { hostedCardPage, hostedCardPost, PROVIDER_UNREACHABLE_TOAST } from "~/features/account/hosted-card-page.server";
import { privatePageHeaders } from "~/features/account/private-page";
import { keepProviderCard, openProviderCardSetup } from "~/features/account/provider-card.server";
import { StripeCardForm } from "~/features/account/ui/stripe-card-form";
import { redirectWithToast } from "~/lib/toast.server";
import { logger } from "~/logger.server";
import { NOINDEX, pageMeta } from "~/platform/seo/page-meta";

export const headers = privatePageHeaders;

export const meta: Route.MetaFunction = () => [...pageMeta({ title: "Replace your card" }), NOINDEX];

export async function loader({ request }: Route.LoaderArgs) {
  const { user, gateway, db } = await hostedCardPage(request, "/account?card=replace");
  let setup;
  try {
    setup = await openProviderCardSetup(db, gateway, user, randomUUID());
  } catch (error) {
    logger.warn({ err: error }, "the card page could not open a card setup with the payment provider");
    throw redirectWithToast("/account", PROVIDER_UNREACHABLE_TOAST);
  }
  if (!setup) throw redirect("/account");
  return { clientSecret: setup.clientSecret, setupRef: setup.ref, hostedFields: gateway.browser };
}

export async function action({ request }: Route.ActionArgs) {
  const post = await hostedCardPost(request, "setupRef", "/account/card");
  if ("refused" in post) return post.refused;
  const { user, gateway, db, ref } = post;
  try {
    return redirectWithToast("/account", await keepProviderCard(db, gateway, user, ref));
  } catch (error) {
    logger.warn({ err: error }, "a new card could not be read from the payment provider");
    return redirectWithToast("/account", PROVIDER_UNREACHABLE_TOAST);
  }
}

export default function AccountCardPage({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageHeading title="Replace your card" lead="The card we charge your membership's fees to." />
      <div className="mx-auto grid w-full max-w-2xl grid-cols-1 gap-8 px-4 pb-16 sm:px-6">
        <StripeCardForm {...loaderData} />
      </div>
    </>
  );
}
