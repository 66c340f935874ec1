import { getFormProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { Field, withoutKey } from "~/components/ui/field";
import { InputField } from "~/components/ui/input-field";
import { FormAlert } from "~/components/ui/form-alert";
import { NativeSelect } from "~/components/ui/native-select";
import { StatusButton } from "~/components/ui/status-button";
import { useIsPending } from "~/components/ui/use-is-pending";
import { DATA_REQUEST_KINDS } from "~/db/enums";
import { DATA_REQUEST_KIND_LABELS, dataRequestSchema } from "~/features/privacy/data-request-schema";

/** Records a request a person sent (by e-mail, post or phone): who, what, and the day it arrived. */
export function DataRequestForm({ lastResult, today }: { lastResult?: SubmissionResult<string[]>; today: string }) {
  const pending = useIsPending();
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
      <InputField field={fields.email} label="E-mail de la personne" type="email" autoComplete="off" />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field field={fields.kind} label="Type de demande">
          <NativeSelect {...withoutKey(getSelectProps(fields.kind))}>
            <option value="">Choisir…</option>
            {DATA_REQUEST_KINDS.map((kind) => (
              <option key={kind} value={kind}>
                {DATA_REQUEST_KIND_LABELS[kind]}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <InputField field={fields.receivedOn} label="Reçue le" type="date" max={today} />
      </div>
      <StatusButton pending={pending} pendingLabel="Enregistrement..." className="justify-self-start">
        Enregistrer la demande
      </StatusButton>
    </Form>
  );
}
