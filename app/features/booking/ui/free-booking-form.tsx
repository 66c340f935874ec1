import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { FormAlert } from "~/components/ui/form-alert";
import { StatusButton } from "~/components/ui/status-button";
import { useIsPending } from "~/components/ui/use-is-pending";
import { z } from "~/lib/zod";
import type { OrderTerms } from "../order-terms";
import { startConsentShape } from "../start-consent";
import { ConsentAndTerms } from "./payment-form";

/** What a booking the member's free accesses cover posts: the request to start, and no card. */
export const freeBookingSchema = z.object(startConsentShape);

/** The payment step of a booking that costs nothing (ADR 029): the consent box, the terms, "Confirm booking". */
export function FreeBookingForm({
  lastResult,
  terms,
}: {
  lastResult: SubmissionResult<string[]> | undefined;
  terms: OrderTerms;
}) {
  const pending = useIsPending();
  const [form, fields] = useForm({
    id: "payment",
    lastResult,
    constraint: getZodConstraint(freeBookingSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: freeBookingSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="grid gap-5">
      <FormAlert id={form.errorId} errors={form.errors} />
      <ConsentAndTerms terms={terms} consent={fields.consent} />
      <StatusButton pending={pending} pendingLabel="Confirming..." size="lg" className="w-full">
        {terms.button}
      </StatusButton>
    </Form>
  );
}
