import type { Submission, SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, useActionData, useSearchParams, type ShouldRevalidateFunctionArgs } from "react-router";
import type { Route } from "./+types/auth";
import { PageHeading } from "~/components/layout/page-heading";
import { NoScriptToast, useToastOnArrival } from "~/components/layout/toast-notice";
import { Card, CardContent } from "~/components/ui/card";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { SignInForm, SignUpForm, type AuthIntent } from "~/features/auth/ui/auth-forms";
import { signIn, signUp, type AuthOutcome } from "~/features/auth/credentials.server";
import { getOptionalUser } from "~/features/auth/guards.server";
import { signInSchema, signUpSchema } from "~/features/auth/schemas";
import { NOINDEX, pageMeta } from "~/platform/seo/page-meta";
import type { Toast } from "~/lib/toast";
import { redirectWithToast } from "~/lib/toast.server";
import { readFormData } from "~/lib/form-data.server";

export const handle = { lang: "fr" };

export const meta: Route.MetaFunction = () => [...pageMeta({ title: "Connexion" }), NOINDEX];

export async function loader({ request }: Route.LoaderArgs) {
  if (await getOptionalUser(request)) throw redirect("/");
  return null;
}

// Neither message says whether the e-mail has an account.
type AuthFailure = Extract<AuthOutcome, { ok: false }>["reason"];

const FAILURE_MESSAGES: Record<AuthFailure, string> = {
  "invalid-credentials": "E-mail ou mot de passe incorrect",
  "rate-limited": "Trop de tentatives. Veuillez réessayer dans une minute.",
  failed: "Une erreur est survenue. Veuillez réessayer.",
};

const FAILURE_STATUS = { "invalid-credentials": 401, "rate-limited": 429, failed: 400 } as const;

interface AuthActionData {
  intent: AuthIntent;
  result: SubmissionResult<string[]>;
  toast: Toast | null;
}

const PASSWORD_FIELDS = ["password", "confirmPassword"];

type AnySubmission = Submission<Record<string, unknown>, string[]>;

/** The fields as typed (never the passwords) with their errors, status 400. */
function invalid(intent: AuthIntent, submission: AnySubmission) {
  return data<AuthActionData>(
    { intent, result: submission.reply({ hideFields: PASSWORD_FIELDS }), toast: null },
    { status: 400 },
  );
}

function refused(intent: AuthIntent, submission: AnySubmission, reason: AuthFailure) {
  const description = FAILURE_MESSAGES[reason];
  const title = intent === "sign-up" ? "Erreur d'inscription" : "Erreur de connexion";
  return data<AuthActionData>(
    {
      intent,
      result: submission.reply({ formErrors: [description], hideFields: PASSWORD_FIELDS }),
      toast: { type: "error", title, description },
    },
    { status: FAILURE_STATUS[reason] },
  );
}

export async function action({ request }: Route.ActionArgs) {
  const formData = await readFormData(request);
  if (formData.get("intent") === "sign-up") {
    const submission = parseWithZod(formData, { schema: signUpSchema });
    if (submission.status !== "success") return invalid("sign-up", submission);
    const outcome = await signUp(request, submission.value);
    if (!outcome.ok) return refused("sign-up", submission, outcome.reason);
    return data<AuthActionData>({
      intent: "sign-up",
      result: submission.reply({ resetForm: true }),
      toast: {
        type: "success",
        title: "Compte créé avec succès",
        description: "Vous pouvez maintenant vous connecter",
      },
    });
  }

  const submission = parseWithZod(formData, { schema: signInSchema });
  if (submission.status !== "success") return invalid("sign-in", submission);
  const outcome = await signIn(request, submission.value);
  if (!outcome.ok) return refused("sign-in", submission, outcome.reason);
  return redirectWithToast(
    "/",
    { type: "success", title: "Connexion réussie", description: "Bienvenue !" },
    { headers: outcome.headers },
  );
}

/** Switching tabs only changes the URL: no need to ask the server again whether the visitor is signed in. */
export function shouldRevalidate({
  currentUrl,
  nextUrl,
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  if (!formMethod && currentUrl.pathname === nextUrl.pathname) return false;
  return defaultShouldRevalidate;
}

type Tab = "connexion" | "inscription";

export default function AuthPage() {
  const actionData = useActionData<typeof action>();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab: Tab = searchParams.get("tab") === "inscription" ? "inscription" : "connexion";
  useToastOnArrival(actionData?.toast);

  // The tabs are links too, so that they work before (or without) JavaScript.
  const tabLink = (value: Tab, label: string) => (
    <TabsTrigger value={value} asChild>
      <a href={value === "inscription" ? "/auth?tab=inscription" : "/auth"} onClick={(event) => event.preventDefault()}>
        {label}
      </a>
    </TabsTrigger>
  );

  return (
    <>
      <PageHeading title="Connexion" lead="Connectez-vous ou créez un compte." />
      <div className="mx-auto w-full max-w-md px-4 pb-16 sm:px-6">
        {/* Errors are printed beside the form already; without JavaScript the success needs saying too. */}
        <NoScriptToast
          toast={actionData?.toast?.type === "success" ? actionData.toast : null}
          className="mb-4 rounded-md border bg-muted px-4 py-3 text-sm"
        />
        <Card>
          <CardContent>
            <Tabs
              value={tab}
              onValueChange={(value) =>
                setSearchParams(value === "inscription" ? { tab: value } : {}, {
                  replace: true,
                  preventScrollReset: true,
                })
              }
            >
              <TabsList className="grid w-full grid-cols-2">
                {tabLink("connexion", "Connexion")}
                {tabLink("inscription", "Inscription")}
              </TabsList>
              <TabsContent value="connexion" className="pt-4">
                <SignInForm lastResult={actionData?.intent === "sign-in" ? actionData.result : undefined} />
              </TabsContent>
              <TabsContent value="inscription" className="pt-4">
                <SignUpForm lastResult={actionData?.intent === "sign-up" ? actionData.result : undefined} />
              </TabsContent>
            </Tabs>
          </CardContent>
        </Card>
      </div>
    </>
  );
}
