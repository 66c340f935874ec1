import { randomUUID } from "node:crypto";
import type { SubmissionResult } from "@conform-to/react";
import { data } from "react-router";
import type { DocumentHandle } from "~/root";
import type { Route } from "./+types/membership-checkout";
import { PageHeading } from "~/components/layout/page-heading";
import { SectionCard } from "~/components/layout/section-card";
import { database } from "~/db/client.server";
import {
  checkoutCardSchema,
  checkoutDetailsSchema,
  checkoutHostedSchema,
} from "~/features/membership-checkout/checkout-schema";
import { checkoutTerms } from "~/features/membership-checkout/checkout-terms";
import {
  HAD_TRIAL,
  hadTrial,
  openHostedCheckout,
  settleHostedCheckout,
  startMembershipCheckout,
  type CheckoutOutcome,
} from "~/features/membership-checkout/membership-checkout.server";
import { CheckoutCardForm, CheckoutDetailsForm } from "~/features/membership-checkout/ui/membership-checkout-form";
import { ChosenPlan } from "~/features/membership-checkout/ui/chosen-plan";
import { StripeCheckoutForm } from "~/features/membership-checkout/ui/stripe-checkout-form";
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
    checkoutKey: randomUUID(),
    expiryYears: expiryYears(now),
    terms: checkoutTerms({ ...chosen, now }),
  };
}

/** With Stripe: the card check the first step opened, for Stripe.js to confirm. */
interface HostedSetup {
  setupRef: string;
  clientSecret: string;
  hostedFields: { publishableKey: string; scriptUrl: string };
}

/** Which step the page shows after a post, with the first step's details and the form's key. */
interface Step {
  step: "details" | "card";
  details: { fullName: string; email: string } | null;
  checkoutKey: string;
  hosted: HostedSetup | null;
  result?: SubmissionResult<string[]>;
}

const backToDetails = (): Step => ({ step: "details", details: null, checkoutKey: randomUUID(), hosted: null });

export async function action({ request }: Route.ActionArgs) {
  const step = (await readFormData(request.clone())).get("step");
  return step === "card" ? startTrial(request) : checkDetails(request);
}

/**
 * The first step: refused for an address that had its trial; otherwise the card step, under a new
 * form key, with Stripe's card check already opened for it when Stripe takes the card.
 */
function checkDetails(request: Request) {
  const gateway = paymentGateway();
  return handleFormAction<typeof checkoutDetailsSchema, Step | null, Step, Step>({
    request,
    form: "membership-checkout-details",
    schema: checkoutDetailsSchema,
    rateLimit: "publicForms",
    refuseUnexpectedFields: "the price is set by us",
    refusalData: backToDetails,
    save: async ({ fullName, email }) => {
      if (await hadTrial(database().db, email)) return null;
      const checkoutKey = randomUUID();
      const hosted =
        gateway.kind === "hosted-card"
          ? { ...(await openHostedCheckout(gateway, { email, checkoutKey })), hostedFields: gateway.browser }
          : null;
      return { step: "card", details: { fullName, email }, checkoutKey, hosted };
    },
    failure: {
      log: "membership checkout could not open its card step",
      formError: "Something went wrong, and nothing was charged. Please try again in a moment.",
    },
    answer: (next, { refuse }) => (next ? data<Step>(next) : refuse(409, [HAD_TRIAL])),
  });
}

function startTrial(request: Request) {
  const gateway = paymentGateway();
  const now = new Date();
  const answer = (outcome: CheckoutOutcome, refuse: (status: number, errors: string[]) => unknown) => {
    if (outcome.kind === "had-trial") return refuse(409, [HAD_TRIAL]);
    if (outcome.kind === "refused") return refuse(402, [outcome.message]);
    nudgeOutbox();
    return redirectWithToast(`/membership-checkout/${outcome.membershipId}`, {
      type: "success",
      title: "Your free trial has started",
      description: "Nothing was charged today.",
    });
  };
  const failure = {
    log: "membership checkout failed",
    formError: "Your trial could not be started. Please try again.",
  };
  if (gateway.kind === "hosted-card") {
    // A refusal goes back to the first step: Stripe's card check is used once.
    return handleFormAction({
      request,
      form: "membership-checkout",
      schema: checkoutHostedSchema,
      rateLimit: "payment",
      refuseUnexpectedFields: "the price is set by us",
      refusalData: backToDetails,
      save: (input) => settleHostedCheckout(database().db, gateway, { ...input, origin: siteOrigin(), now }),
      failure,
      answer: (outcome, { refuse }) => answer(outcome, refuse) as ReturnType<typeof refuse>,
    });
  }
  return handleFormAction({
    request,
    form: "membership-checkout",
    schema: checkoutCardSchema(now),
    rateLimit: "payment",
    refuseUnexpectedFields: "the price is set by us",
    hideFields: CARD_SECRETS,
    refusalData: (): Step => ({ step: "card", details: null, checkoutKey: randomUUID(), hosted: null }),
    save: ({ cardNumber, expiryMonth, expiryYear, cvv, ...input }) =>
      startMembershipCheckout(database().db, gateway, {
        ...input,
        card: { number: cardNumber, expiryMonth, expiryYear, cvv },
        origin: siteOrigin(),
        now,
      }),
    failure,
    answer: (outcome, { refuse }) => answer(outcome, refuse) as ReturnType<typeof refuse>,
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
          {step === "card" && actionData?.hosted ? (
            <StripeCheckoutForm
              chosen={chosen}
              details={actionData.details}
              checkoutKey={checkoutKey}
              hosted={actionData.hosted}
              terms={terms}
            />
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
