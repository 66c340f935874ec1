import { data, redirect } from "react-router";
import type { DocumentHandle } from "~/root";
import type { Route } from "./+types/withdraw";
import { PageHeading } from "~/components/layout/page-heading";
import { database } from "~/db/client.server";
import { WITHDRAW_PATH } from "~/features/legal/model-withdrawal-form";
import { CompanyEmailLink, CompanyPhoneLink } from "~/features/legal/ui/company-contact";
import { nudgeOutbox } from "~/platform/mail/outbox-worker.server";
import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-terms";
import { isHoneypotFilled } from "~/features/messages/honeypot";
import { paymentGateway } from "~/features/payments/live-gateway.server";
import { pageMeta } from "~/platform/seo/page-meta";
import { receiptTime } from "~/features/withdrawal/receipt-time";
import { recordWithdrawal } from "~/features/withdrawal/withdrawal.server";
import { withdrawalSubmissionSchema } from "~/features/withdrawal/withdrawal-schema";
import type { WithdrawalStep } from "~/features/withdrawal/withdrawal-steps";
import { WithdrawalDetailsForm, WithdrawalReceipt, WithdrawalReview } from "~/features/withdrawal/ui/withdrawal-steps";
import { handleFormAction } from "~/lib/form-action.server";
import { siteOrigin } from "~/lib/site-origin.server";
import { passRetryAfter } from "~/lib/retry-after";

export const headers = passRetryAfter;

export const handle = { hydrate: false } satisfies DocumentHandle;

const TITLE = "Withdraw from contract here";
const LEAD = `You can withdraw from your fast track booking or your membership within ${MEMBERSHIP_TERMS.changeOfMindDays} days of your confirmation e-mail, without giving a reason.`;

export const meta: Route.MetaFunction = (args) => pageMeta({ title: TITLE, description: LEAD }, args);

const NOT_RECORDED =
  "Sorry, we could not record your withdrawal right now, and nothing has changed. Please try again in a moment, or contact our customer service.";

/**
 * The withdrawal function (CRD Art. 11a, ADR 019), in three server-rendered steps that work without
 * JavaScript: the details, then the same details with "Confirm withdrawal" (and a key made here, so
 * that confirming twice records once), then the receipt, the same for every outcome.
 */
export function action({ request }: Route.ActionArgs) {
  return handleFormAction({
    request,
    form: "withdrawal",
    schema: withdrawalSubmissionSchema,
    rateLimit: "publicForms",
    drop: (formData) => (isHoneypotFilled(formData) ? redirect(WITHDRAW_PATH) : undefined),
    async save({ intent, idempotencyKey, ...details }): Promise<WithdrawalStep> {
      if (intent === "review") return { step: "review", details, idempotencyKey: crypto.randomUUID() };
      if (intent === "edit") return { step: "edit", details };
      const { receivedAt } = await recordWithdrawal(database().db, paymentGateway(), {
        details,
        idempotencyKey: idempotencyKey!,
        origin: siteOrigin(),
      });
      return { step: "received", ...receiptTime(receivedAt), email: details.email };
    },
    failure: { log: "withdrawal could not be recorded", formError: NOT_RECORDED },
    answer(step) {
      if (step.step === "received") nudgeOutbox();
      return data(step);
    },
  });
}

const linkClass = "font-medium text-link underline-offset-4 hover:underline";

const customerService = (
  <>
    <CompanyEmailLink className={linkClass} /> or <CompanyPhoneLink className={linkClass} />
  </>
);

export default function WithdrawPage({ actionData }: Route.ComponentProps) {
  const step = actionData && "step" in actionData ? actionData : undefined;
  const result = actionData && "result" in actionData ? actionData.result : undefined;
  return (
    <>
      <PageHeading title={TITLE} lead={LEAD} />
      <div className="mx-auto max-w-xl px-4 pb-16 sm:px-6">
        {step?.step === "review" ? (
          <WithdrawalReview details={step.details} idempotencyKey={step.idempotencyKey} />
        ) : step?.step === "received" ? (
          <WithdrawalReceipt day={step.day} time={step.time} email={step.email} contact={customerService} />
        ) : (
          <WithdrawalDetailsForm
            key={step?.step ?? "details"}
            lastResult={result}
            defaultValue={step?.step === "edit" ? step.details : undefined}
          />
        )}
      </div>
    </>
  );
}
