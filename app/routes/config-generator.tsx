import { useEffect } from "react";
import { data, Form, useNavigation } from "react-router";
import { toast } from "sonner";
import type { Route } from "./+types/config-generator";
import { ColourField } from "~/components/config-generator/colour-field";
import { GeneratedConfig } from "~/components/config-generator/generated-config";
import { TextField } from "~/components/config-generator/text-field";
import { PageHeading } from "~/components/site/page-heading";
import { Button } from "~/components/ui/button";
import { pageMeta } from "~/features/seo/page-meta";
import { generateSiteConfig } from "~/features/site-config/generate-site-config.server";
import {
  generatorFormDefaults,
  MISSING_COMPANY_NAME,
  readGeneratorForm,
  type GeneratorFieldErrors,
} from "~/features/site-config/generator-form";
import { siteConfig } from "../../site.config";

export const meta: Route.MetaFunction = () => [
  ...pageMeta({ title: "Site Configuration Generator" }),
  { name: "robots", content: "noindex" },
];

export function loader() {
  return { defaults: generatorFormDefaults(siteConfig) };
}

export async function action({ request }: Route.ActionArgs) {
  const submission = readGeneratorForm(await request.formData());
  if (!("form" in submission)) {
    return data({ status: "invalid" as const, ...submission }, { status: 400 });
  }
  const outcome = await generateSiteConfig(submission.form);
  return data({ ...outcome, values: submission.values }, { status: outcome.status === "failed" ? 502 : 200 });
}

/** In the browser: the spec's toasts around the server's action (spec §8). */
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

export default function ConfigGeneratorPage({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const values = actionData?.values ?? loaderData.defaults;
  const errors: GeneratorFieldErrors = actionData?.status === "invalid" ? actionData.fieldErrors : {};
  const error = (name: keyof GeneratorFieldErrors) => errors[name]?.[0];

  useEffect(() => {
    if (actionData?.status !== "invalid") return;
    const [firstInvalid] = Object.keys(actionData.fieldErrors);
    if (firstInvalid) document.getElementById(firstInvalid)?.focus();
  }, [actionData]);

  return (
    <>
      <PageHeading
        title="Site Configuration Generator"
        lead="Rebrand the whole site: enter the new company's details and colours, and every text is rephrased for the new brand."
      />
      <div className="mx-auto grid max-w-4xl gap-8 px-4 pb-16 sm:px-6">
        <Form
          method="post"
          noValidate
          preventScrollReset
          className="grid gap-8 rounded-xl border bg-card p-6 shadow-sm"
        >
          <fieldset className="grid gap-4 sm:grid-cols-2">
            <legend className="mb-4 text-lg font-semibold">Company</legend>
            <TextField
              name="companyName"
              label="Company name"
              required
              autoComplete="organization"
              placeholder="e.g. Skyway Travel"
              defaultValue={values.companyName}
              error={error("companyName")}
              className="sm:col-span-2"
            />
            <TextField name="phone" label="Phone" type="tel" defaultValue={values.phone} error={error("phone")} />
            <TextField name="email" label="Email" type="email" defaultValue={values.email} error={error("email")} />
            <TextField
              name="address"
              label="Company address"
              defaultValue={values.address}
              error={error("address")}
              className="sm:col-span-2"
            />
          </fieldset>
          <fieldset className="grid gap-4 sm:grid-cols-3">
            <legend className="mb-4 text-lg font-semibold">Domains</legend>
            <TextField
              name="mainDomain"
              label="Main domain"
              defaultValue={values.mainDomain}
              error={error("mainDomain")}
            />
            <TextField
              name="fastTrackDomain"
              label="Fast-track domain"
              defaultValue={values.fastTrackDomain}
              error={error("fastTrackDomain")}
            />
            <TextField
              name="checkInDomain"
              label="Check-in domain"
              defaultValue={values.checkInDomain}
              error={error("checkInDomain")}
            />
          </fieldset>
          <fieldset className="grid gap-4 sm:grid-cols-2">
            <legend className="mb-4 text-lg font-semibold">Colours</legend>
            <ColourField
              name="primaryColor"
              label="Primary colour"
              defaultValue={values.primaryColor}
              error={error("primaryColor")}
            />
            <ColourField
              name="accentColor"
              label="Accent colour"
              defaultValue={values.accentColor}
              error={error("accentColor")}
            />
          </fieldset>
          <div className="grid gap-4 border-t pt-6 sm:flex sm:items-center sm:justify-between">
            <p className="text-sm text-muted-foreground">
              Fields start from the current site.config.ts; a field left empty keeps its current value.
            </p>
            <Button type="submit" size="lg" disabled={busy}>
              {busy ? "Generating with AI..." : "Generate Configuration"}
            </Button>
          </div>
        </Form>
        {actionData?.status === "failed" ? (
          <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/5 p-4 text-sm">
            <strong>Generation Failed</strong> {actionData.error}
          </p>
        ) : null}
        {actionData?.status === "generated" ? (
          <GeneratedConfig config={actionData.config} provider={actionData.provider} />
        ) : null}
      </div>
    </>
  );
}
