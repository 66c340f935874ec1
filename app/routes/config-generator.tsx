import { data } from "react-router";
import { FormAlert } from "~/components/ui/form-alert";
import { toast } from "~/components/ui/toast";
import type { Route } from "./+types/config-generator";
import { GeneratedConfig } from "~/features/site-config/generator/ui/generated-config";
import { GeneratorForm } from "~/features/site-config/generator/ui/generator-form";
import { PageHeading } from "~/components/layout/page-heading";
import { requireAdmin } from "~/features/auth/guards.server";
import { NOINDEX, pageMeta } from "~/platform/seo/page-meta";
import { generateSiteConfig } from "~/features/site-config/generator/generate-site-config.server";
import {
  generatorFormDefaults,
  MISSING_COMPANY_NAME,
  readGeneratorForm,
  type GeneratorFieldErrors,
} from "~/features/site-config/generator/generator-schema";
import { siteConfig } from "../../site.config";
import { readFormData } from "~/lib/form-data.server";

export const meta: Route.MetaFunction = () => [...pageMeta({ title: "Site Configuration Generator" }), NOINDEX];

/** An internal tool: admins only, checked on every load and every generation. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return { defaults: generatorFormDefaults(siteConfig) };
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const submission = readGeneratorForm(await readFormData(request));
  if (!("form" in submission)) {
    return data({ status: "invalid" as const, ...submission }, { status: 400 });
  }
  const outcome = await generateSiteConfig(submission.form);
  return data({ ...outcome, values: submission.values }, { status: outcome.status === "failed" ? 502 : 200 });
}

/** In the browser: the progress and error toasts around the server's action. */
export async function clientAction({ request, serverAction }: Route.ClientActionArgs) {
  const submission = readGeneratorForm(await request.clone().formData());
  if (!("form" in submission)) {
    if (submission.fieldErrors.companyName) {
      toast.error("Missing Information", { description: MISSING_COMPANY_NAME });
    }
    return { status: "invalid" as const, ...submission };
  }
  const progress = toast.loading("Generating Content", {
    description: "AI is rephrasing all wordings for your new brand...",
  });
  try {
    const result = await serverAction();
    if (result.status === "failed") {
      toast.error("Generation Failed", { description: result.error || "Regeneration failed" });
    }
    return result;
  } catch (error) {
    const message =
      error instanceof Error ? error.message || "Failed to regenerate wordings" : "Unknown error occurred";
    toast.error("Generation Failed", { description: message });
    return { status: "failed" as const, error: message, values: submission.values };
  } finally {
    toast.dismiss(progress);
  }
}

const NO_ERRORS: GeneratorFieldErrors = {};

export default function ConfigGeneratorPage({ loaderData, actionData }: Route.ComponentProps) {
  const values = actionData?.values ?? loaderData.defaults;
  const fieldErrors: GeneratorFieldErrors = actionData?.status === "invalid" ? actionData.fieldErrors : NO_ERRORS;

  return (
    <>
      <PageHeading
        title="Site Configuration Generator"
        lead="Rebrand the whole site: enter the new company's details and colours, and every text is rephrased for the new brand."
      />
      <div className="mx-auto grid max-w-4xl gap-8 px-4 pb-16 sm:px-6">
        <GeneratorForm values={values} fieldErrors={fieldErrors} />
        {actionData?.status === "failed" ? <FormAlert title="Generation Failed" errors={[actionData.error]} /> : null}
        {actionData?.status === "generated" ? (
          <GeneratedConfig config={actionData.config} provider={actionData.provider} />
        ) : null}
      </div>
    </>
  );
}
