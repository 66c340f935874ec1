import { redirect } from "react-router";
import type { DocumentHandle } from "~/root";
import type { Route } from "./+types/account.sign-in";
import { PageHeading } from "~/components/layout/page-heading";
import { SectionCard } from "~/components/layout/section-card";
import { database } from "~/db/client.server";
import { privatePageHeaders } from "~/features/account/private-page";
import { sendCodeSchema, signInWithCodeSchema } from "~/features/account/sign-in-schemas";
import { CodeForm, SendCodeForm } from "~/features/account/ui/sign-in-forms";
import { ACCOUNT_SIGN_IN_PATH } from "~/components/layout/nav-links";
import { getOptionalUser } from "~/features/auth/guards.server";
import { sendSignInCode, signInWithCode } from "~/features/auth/sign-in-code.server";
import { SIGN_IN_CODE_RULES } from "~/features/auth/sign-in-code-rules";
import { readSignInQuery, signInPath } from "~/features/auth/sign-in-link.server";
import { isHoneypotFilled } from "~/features/messages/honeypot";
import { handleFormAction } from "~/lib/form-action.server";
import { readFormData } from "~/lib/form-data.server";
import { RATE_LIMIT_TIERS, TOO_MANY_REQUESTS } from "~/lib/rate-limit.server";
import { redirectWithToast } from "~/lib/toast.server";
import { NOINDEX, pageMeta } from "~/platform/seo/page-meta";

export const handle = { hydrate: false } satisfies DocumentHandle;

export const headers = privatePageHeaders;

export const meta: Route.MetaFunction = () => [...pageMeta({ title: "Sign in to your account" }), NOINDEX];

export const WRONG_CODE = "This code is not right, or it has expired. Check the e-mail, or ask for a new code.";
const TOO_MANY_CODES = `We have sent several codes to this address already. Please use the newest one, or ask again in ${RATE_LIMIT_TIERS.signInCodesPerAddress.windowSeconds / 60} minutes.`;
const SIGN_IN_FAILED = "Sorry, we could not sign you in right now. Please try again in a moment.";

export async function loader({ request }: Route.LoaderArgs) {
  if (await getOptionalUser(request)) throw redirect("/account");
  const url = new URL(request.url);
  const filled = readSignInQuery(url.searchParams);
  const codeStep = Boolean(filled && (filled.code || url.searchParams.get("step") === "code"));
  return { email: filled?.email ?? null, code: filled?.code ?? null, codeStep };
}

/** Which form was posted, read before the form's own handling reads the body. */
async function intentOf(request: Request) {
  const value = (await readFormData(request.clone())).get("intent");
  return value === "sign-in" ? "sign-in" : "send-code";
}

export async function action({ request }: Route.ActionArgs) {
  const db = database().db;
  const drop = (formData: FormData) => (isHoneypotFilled(formData) ? redirect(ACCOUNT_SIGN_IN_PATH) : undefined);
  if ((await intentOf(request)) === "send-code") {
    return handleFormAction({
      request,
      form: "account-sign-in-code",
      schema: sendCodeSchema,
      rateLimit: "publicForms",
      drop,
      save: ({ email }) => sendSignInCode(request, db, email).then((outcome) => ({ outcome, email })),
      failure: { log: "a sign-in code could not be sent", formError: SIGN_IN_FAILED },
      answer({ outcome, email }, { refuse }) {
        if (!outcome.ok) {
          return outcome.reason === "rate-limited" ? refuse(429, [TOO_MANY_CODES]) : refuse(500, [SIGN_IN_FAILED]);
        }
        return redirectWithToast(signInPath(email, "code"), {
          type: "success",
          title: "Check your e-mail",
          description: `We have sent a sign-in code to ${email}. It works for ${SIGN_IN_CODE_RULES.minutes} minutes.`,
        });
      },
    });
  }
  return handleFormAction({
    request,
    form: "account-sign-in",
    schema: signInWithCodeSchema,
    rateLimit: "publicForms",
    drop,
    save: (value) => signInWithCode(request, db, value),
    failure: { log: "a sign-in with a code failed", formError: SIGN_IN_FAILED },
    answer(outcome, { refuse }) {
      if (outcome.ok) {
        return redirectWithToast(
          "/account",
          { type: "success", title: "You are signed in" },
          { headers: outcome.headers },
        );
      }
      if (outcome.reason === "rate-limited") return refuse(429, [TOO_MANY_REQUESTS]);
      return refuse(outcome.reason === "invalid-credentials" ? 400 : 500, [
        outcome.reason === "invalid-credentials" ? WRONG_CODE : SIGN_IN_FAILED,
      ]);
    },
  });
}

export default function AccountSignInPage({ loaderData, actionData }: Route.ComponentProps) {
  // A refused code comes back to this page without the query it was on: the form says whose it was.
  const refused = actionData?.result.initialValue as { intent?: string; email?: string } | undefined;
  const email = refused?.intent === "sign-in" && refused.email ? refused.email : loaderData.email;
  const codeStep = (refused?.intent === "sign-in" || loaderData.codeStep) && email;
  return (
    <>
      <PageHeading
        title="Your account"
        lead="Your membership, your bookings and their vouchers, in one place. No password: we e-mail you a code."
      />
      <div className="mx-auto grid w-full max-w-md gap-6 px-4 pb-16 sm:px-6">
        {codeStep ? (
          <>
            <SectionCard large title="Enter your code">
              <CodeForm email={email} code={loaderData.code ?? undefined} lastResult={actionData?.result} />
            </SectionCard>
            <SectionCard
              title="No e-mail?"
              subtitle="Look in your spam folder, or ask for a new code: only the newest one works."
            >
              <SendCodeForm email={email} submitLabel="Send a new code" />
            </SectionCard>
          </>
        ) : (
          <SectionCard
            large
            title="Sign in"
            subtitle="Enter the e-mail address you booked with. We will send you a code to sign in."
          >
            <SendCodeForm email={email ?? undefined} lastResult={actionData?.result} />
          </SectionCard>
        )}
      </div>
    </>
  );
}
