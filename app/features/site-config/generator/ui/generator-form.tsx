import { useEffect } from "react";
import { Form } from "react-router";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { StatusButton } from "~/components/ui/status-button";
import { useIsPending } from "~/components/ui/use-is-pending";
import type {
  GeneratorField,
  GeneratorFieldErrors,
  GeneratorFormValues,
} from "~/features/site-config/generator/generator-schema";
import { ColourField } from "./colour-field";

interface GeneratorFormProps {
  values: GeneratorFormValues;
  fieldErrors: GeneratorFieldErrors;
}

/** The generator's form; it posts to the page's action, with or without JavaScript. */
export function GeneratorForm({ values, fieldErrors }: GeneratorFormProps) {
  const pending = useIsPending({ state: "submitting" });
  const field = (name: GeneratorField) => ({ id: name, errors: fieldErrors[name] });
  const input = (name: GeneratorField) => ({ name, defaultValue: values[name] });

  useEffect(() => {
    const [firstInvalid] = Object.keys(fieldErrors);
    if (firstInvalid) document.getElementById(firstInvalid)?.focus();
  }, [fieldErrors]);

  return (
    <Form method="post" noValidate preventScrollReset className="grid gap-8 rounded-xl border bg-card p-6 shadow-sm">
      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-4 text-lg font-semibold">Company</legend>
        <Field
          field={field("companyName")}
          label={
            <>
              Company name
              <span aria-hidden="true" className="text-destructive">
                *
              </span>
            </>
          }
          className="sm:col-span-2"
        >
          <Input {...input("companyName")} required autoComplete="organization" placeholder="e.g. Skyway Travel" />
        </Field>
        <Field field={field("phone")} label="Phone">
          <Input {...input("phone")} type="tel" />
        </Field>
        <Field field={field("email")} label="Email">
          <Input {...input("email")} type="email" />
        </Field>
        <Field field={field("address")} label="Company address" className="sm:col-span-2">
          <Input {...input("address")} />
        </Field>
      </fieldset>
      <fieldset className="grid gap-4 sm:grid-cols-3">
        <legend className="mb-4 text-lg font-semibold">Domains</legend>
        <Field field={field("mainDomain")} label="Main domain">
          <Input {...input("mainDomain")} />
        </Field>
        <Field field={field("fastTrackDomain")} label="Fast-track domain">
          <Input {...input("fastTrackDomain")} />
        </Field>
        <Field field={field("checkInDomain")} label="Check-in domain">
          <Input {...input("checkInDomain")} />
        </Field>
      </fieldset>
      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-4 text-lg font-semibold">Colours</legend>
        <ColourField field={field("primaryColor")} {...input("primaryColor")} label="Primary colour" />
        <ColourField field={field("accentColor")} {...input("accentColor")} label="Accent colour" />
      </fieldset>
      <div className="grid gap-4 border-t pt-6 sm:flex sm:items-center sm:justify-between">
        <p className="text-sm text-muted-foreground">
          Fields start from the current site.config.ts; a field left empty keeps its current value.
        </p>
        <StatusButton pending={pending} pendingLabel="Generating with AI..." size="lg">
          Generate Configuration
        </StatusButton>
      </div>
    </Form>
  );
}
