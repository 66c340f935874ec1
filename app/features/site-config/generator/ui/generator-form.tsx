import { useEffect } from "react";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import type {
  GeneratorField,
  GeneratorFieldErrors,
  GeneratorFormValues,
} from "~/features/site-config/generator/generator-schema";
import { ColourField } from "./colour-field";
import { TextField } from "./text-field";

interface GeneratorFormProps {
  values: GeneratorFormValues;
  fieldErrors: GeneratorFieldErrors;
  busy: boolean;
}

/** The generator's form; it posts to the page's action, with or without JavaScript. */
export function GeneratorForm({ values, fieldErrors, busy }: GeneratorFormProps) {
  const field = (name: GeneratorField) => ({ name, defaultValue: values[name], error: fieldErrors[name]?.[0] });

  useEffect(() => {
    const [firstInvalid] = Object.keys(fieldErrors);
    if (firstInvalid) document.getElementById(firstInvalid)?.focus();
  }, [fieldErrors]);

  return (
    <Form method="post" noValidate preventScrollReset className="grid gap-8 rounded-xl border bg-card p-6 shadow-sm">
      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-4 text-lg font-semibold">Company</legend>
        <TextField
          {...field("companyName")}
          label="Company name"
          required
          autoComplete="organization"
          placeholder="e.g. Skyway Travel"
          className="sm:col-span-2"
        />
        <TextField {...field("phone")} label="Phone" type="tel" />
        <TextField {...field("email")} label="Email" type="email" />
        <TextField {...field("address")} label="Company address" className="sm:col-span-2" />
      </fieldset>
      <fieldset className="grid gap-4 sm:grid-cols-3">
        <legend className="mb-4 text-lg font-semibold">Domains</legend>
        <TextField {...field("mainDomain")} label="Main domain" />
        <TextField {...field("fastTrackDomain")} label="Fast-track domain" />
        <TextField {...field("checkInDomain")} label="Check-in domain" />
      </fieldset>
      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-4 text-lg font-semibold">Colours</legend>
        <ColourField {...field("primaryColor")} label="Primary colour" />
        <ColourField {...field("accentColor")} label="Accent colour" />
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
  );
}
