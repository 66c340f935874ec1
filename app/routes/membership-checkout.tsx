import { randomUUID } from "node:crypto";
import type { SubmissionResult } from "@conform-to/react";
import { data } from "react-router";
import type { DocumentHandle } from "~/root";
import type { Route } from "./+types/membership-checkout";
import { PageHeading } from "~/components/layout/page-heading";
import { SectionCard } from "~/components/layout/section-card";
import { database } from "~/db/client.server";
import { checkoutCardSchema, checkoutDetailsSchema } from "~/features/membership-checkout/checkout-schema";
import { checkoutTerms } from "~/features/membership-checkout/checkout-terms";
import {
  HAD_TRIAL,
  hadTrial,
  startMembershipCheckout,
} from "~/features/membership-checkout/membership-checkout.server";
import { CheckoutCardForm, CheckoutDetailsForm } from "~/features/membership-checkout/ui/membership-checkout-form";
import { ChosenPlan, HostedCardNotice } from "~/features/membership-checkout/ui/chosen-plan";
import { CARD_SECRETS, expiryYears } from "~/features/payments/card";
import { paymentGateway } from "~/features/payments/live-gateway.server";
import { chosenPlan } from "~/features/plans/plans";
import { currencyFromRequest } from "~/lib/currency.server";
import { isCurrencyCode } from "~/lib/currency";
import { handleFormAction } from "~/lib/form-action.server";
import { readFormData } from "~/lib/form-data.server";
import { passRetryAfter } from "~/lib/retry-after";
import { redirectWithToast } from "~/lib/toast.server";
import { siteOrigin } from "~/lib/site-origin.server";
import { nudgeOutbox } from "~/platform/mail/outbox-worker.server";
import { NOINDEX, pageMeta } from "~/platform/seo/page-meta";
import { siteConfig } from "../../site.config";

export const headers = passRetryAfter;

/** Two server-checked steps: the page works the same without JavaScript. */
export const handle = { hydrate: false } satisfies DocumentHandle;

export const meta: Route.MetaFunction = () => [...pageMeta({ title: "Start your free trial" }), NOINDEX];

/** The plan from `?plan=` (or the `product` code 'Start Free Trial' carries), the currency from `?currency=` or the visitor's. */
export function loader({ request }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  const currencyParam = query.get("currency");
  const chosen = {
    plan: chosenPlan(query.get("plan"), query.get("product")),
    currency: isCurrencyCode(currencyParam) ? currencyParam : currencyFromRequest(request),
  };
  const now = new Date();
  return {
    chosen,
    hostedCard: paymentGateway().kind === "hosted-card",
    checkoutKey: randomUUID(),
    expiryYears: expiryYears(now),
    terms: checkoutTerms({ ...chosen, now }),
  };
}

/** Which step the page shows after a post, with the first step's details and a new form key. */
interface Step {
  step: "details" | "card";
  details: { fullName: string; email: string } | null;
  checkoutKey: string;
  result?: SubmissionResult<string[]>;
}

export async function action({ request }: Route.ActionArgs) {
  const gateway = paymentGateway();
  if (gateway.kind === "hosted-card") {
    return data<Step>({ step: "details", details: null, checkoutKey: randomUUID() }, 404);
  }
  const step = (await readFormData(request.clone())).get("step");
  if (step !== "card") {
    return handleFormAction<
      typeof checkoutDetailsSchema,
      { had: boolean; fullName: string; email: string },
      Step,
      Step
    >({
      request,
      form: "membership-checkout-details",
      schema: checkoutDetailsSchema,
      rateLimit: "publicForms",
      refuseUnexpectedFields: "the price is set by us",
      refusalData: () => ({ step: "details", details: null, checkoutKey: randomUUID() }),
      save: async ({ fullName, email }) => ({ had: await hadTrial(database().db, email), fullName, email }),
      failure: {
        log: "membership checkout details check failed",
        formError: "Something went wrong. Please try again.",
      },
      answer: ({ had, fullName, email }, { refuse }) => {
        if (had) return refuse(409, [HAD_TRIAL]);
        return data<Step>({ step: "card", details: { fullName, email }, checkoutKey: randomUUID() });
      },
    });
  }
  const now = new Date();
  return handleFormAction({
    request,
    form: "membership-checkout",
    schema: checkoutCardSchema(now),
    rateLimit: "payment",
    refuseUnexpectedFields: "the price is set by us",
    hideFields: CARD_SECRETS,
    refusalData: (): Step => ({ step: "card", details: null, checkoutKey: randomUUID() }),
    save: ({ fullName, email, plan, currency, cardNumber, expiryMonth, expiryYear, cvv, checkoutKey }) =>
      startMembershipCheckout(database().db, gateway, {
        fullName,
        email,
        plan,
        currency,
        card: { number: cardNumber, expiryMonth, expiryYear, cvv },
        checkoutKey,
        origin: siteOrigin(request),
        now,
      }),
    failure: { log: "membership checkout failed", formError: "Your trial could not be started. Please try again." },
    answer: (outcome, { refuse }) => {
      if (outcome.kind === "had-trial") return refuse(409, [HAD_TRIAL]);
      if (outcome.kind === "refused") return refuse(402, [outcome.message]);
      nudgeOutbox();
      return redirectWithToast(`/membership-checkout/${outcome.membershipId}`, {
        type: "success",
        title: "Your free trial has started",
        description: "Nothing was charged today.",
      });
    },
  });
}

export default function MembershipCheckoutPage({ loaderData, actionData }: Route.ComponentProps) {
  const { chosen, terms } = loaderData;
  const plan = siteConfig.pricing[chosen.plan];
  const step = actionData?.step ?? "details";
  const checkoutKey = actionData?.checkoutKey ?? loaderData.checkoutKey;
  return (
    <>
      <PageHeading
        title="Start your free trial"
        lead={`${plan.name} membership: ${siteConfig.trialDays} days free, then one fee every three months. Cancel anytime.`}
      />
      <div className="mx-auto grid max-w-5xl grid-cols-1 gap-6 px-4 pb-16 sm:px-6 md:grid-cols-[1fr_22rem]">
        <SectionCard title={step === "card" ? "Your card" : "Your details"}>
          {loaderData.hostedCard ? (
            <HostedCardNotice />
          ) : step === "card" ? (
            <CheckoutCardForm
              key={checkoutKey}
              chosen={chosen}
              details={actionData?.details ?? null}
              lastResult={actionData?.result}
              checkoutKey={checkoutKey}
              expiryYears={loaderData.expiryYears}
              terms={terms}
            />
          ) : (
            <CheckoutDetailsForm chosen={chosen} lastResult={actionData?.result} />
          )}
        </SectionCard>
        <aside aria-label="Your plan" className="order-first md:order-last">
          <ChosenPlan {...chosen} />
        </aside>
      </div>
    </>
  );
}
