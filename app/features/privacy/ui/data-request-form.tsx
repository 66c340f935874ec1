import { getFormProps, getInputProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { FormAlert, FormField, withoutKey } from "~/components/ui/form-field";
import { useSubmitting } from "~/components/ui/use-submitting";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { DATA_REQUEST_KINDS } from "~/db/enums";
import { DATA_REQUEST_KIND_LABELS, dataRequestSchema } from "~/features/privacy/data-request-schema";

/** Records a request a person sent (by e-mail, post or phone): who, what, and the day it arrived. */
export function DataRequestForm({ lastResult, today }: { lastResult?: SubmissionResult<string[]>; today: string }) {
  const busy = useSubmitting();
  const schema = dataRequestSchema(today);
  const [form, fields] = useForm({
    id: "data-request",
    lastResult,
    defaultValue: { receivedOn: today },
    constraint: getZodConstraint(schema),
    // Not on blur: an error appearing then would move the button away from the click that caused the blur.
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-4">
      <FormAlert id={form.errorId} errors={form.errors} />
      <FormField field={fields.email} label="E-mail de la personne">
        <Input {...withoutKey(getInputProps(fields.email, { type: "email" }))} autoComplete="off" />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField field={fields.kind} label="Type de demande">
          <NativeSelect {...withoutKey(getSelectProps(fields.kind))}>
            <option value="">Choisir…</option>
            {DATA_REQUEST_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {DATA_REQUEST_KIND_LABELS[kind]}
              </option>
            ))}
          </NativeSelect>
        </FormField>
        <FormField field={fields.receivedOn} label="Reçue le">
          <Input {...withoutKey(getInputProps(fields.receivedOn, { type: "date" }))} max={today} />
        </FormField>
      </div>
      <Button type="submit" disabled={busy} className="justify-self-start">
        {busy ? "Enregistrement..." : "Enregistrer la demande"}
      </Button>
    </Form>
  );
}
