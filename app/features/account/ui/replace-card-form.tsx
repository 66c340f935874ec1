import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { Link, Form } from "react-router";
import { FormAlert } from "~/components/ui/form-alert";
import { StatusButton } from "~/components/ui/status-button";
import { useIsPending } from "~/components/ui/use-is-pending";
import { CardFields } from "~/features/payments/ui/card-fields";
import { Button } from "~/components/ui/button";
import { getZodConstraint } from "@conform-to/zod/v4";
import { replaceCardSchema } from "../replace-card-schema";
import type { z } from "~/lib/zod";

/**
 * The sandbox's form for a new card, checked by the server (the account page is not hydrated). Its
 * key is new with every page and every refusal, so that another card is never answered with the
 * first one's refusal; the number and CVV are never sent back.
 */
export function ReplaceCardForm({
  lastResult,
  expiryYears,
  formKey,
}: {
  lastResult: SubmissionResult<string[]> | undefined;
  expiryYears: number[];
  formKey: string;
}) {
  const pending = useIsPending();
  const [form, fields] = useForm<z.input<ReturnType<typeof replaceCardSchema>>>({
    id: "replace-card",
    lastResult,
    constraint: getZodConstraint(replaceCardSchema(new Date())),
  });
  return (
    <Form
      method="post"
      action="/account"
      {...getFormProps(form)}
      aria-label="Replace your card"
      className="grid gap-4 rounded-lg border p-4"
    >
      <p className="font-semibold">Replace your card</p>
      <p className="text-sm text-muted-foreground">
        We check the new card with your bank without charging it, and charge it from the next fee on.
      </p>
      <FormAlert id={form.errorId} errors={form.errors} />
      <input type="hidden" name="intent" value="replace-card" />
      <input type="hidden" name="formKey" value={formKey} />
      <CardFields fields={fields} expiryYears={expiryYears} />
      <div className="flex flex-wrap gap-3">
        <StatusButton pending={pending} pendingLabel="Saving...">
          Save this card
        </StatusButton>
        <Button asChild variant="outline">
          <Link to="/account">Go back</Link>
        </Button>
      </div>
    </Form>
  );
}
