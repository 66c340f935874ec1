import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form, Link } from "react-router";
import { FormAlert } from "~/components/ui/form-alert";
import { InputField } from "~/components/ui/input-field";
import { StatusButton } from "~/components/ui/status-button";
import { useIsPending } from "~/components/ui/use-is-pending";
import type { OrderTerms } from "~/features/booking/order-terms";
import { FinishAndAssurances } from "~/features/booking/ui/payment-form";
import { CardFields } from "~/features/payments/ui/card-fields";
import type { PlanId } from "~/features/site-config/types";
import type { CurrencyCode } from "~/lib/currency";
import type { z } from "~/lib/zod";
import { checkoutCardSchema, checkoutDetailsSchema } from "../checkout-schema";

interface Chosen {
  plan: PlanId;
  currency: CurrencyCode;
}

function ChosenFields({ plan, currency }: Chosen) {
  return (
    <>
      <input type="hidden" name="plan" value={plan} />
      <input type="hidden" name="currency" value={currency} />
    </>
  );
}

/** The first step: who starts the trial. The server says whether the address may still have one before a card is asked for. */
export function CheckoutDetailsForm({
  chosen,
  lastResult,
}: {
  chosen: Chosen;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const pending = useIsPending();
  const [form, fields] = useForm<z.input<typeof checkoutDetailsSchema>>({
    id: "membership-checkout-details",
    lastResult,
    constraint: getZodConstraint(checkoutDetailsSchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: checkoutDetailsSchema }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="grid grid-cols-1 gap-5">
      <FormAlert id={form.errorId} errors={form.errors} />
      <input type="hidden" name="step" value="details" />
      <ChosenFields {...chosen} />
      <InputField field={fields.fullName} label="Full name" autoComplete="name" />
      <InputField field={fields.email} label="Email" type="email" autoComplete="email" />
      <p className="text-sm text-muted-foreground">
        Each e-mail address gets one free trial: we check yours before we ask for a card. Already a member?{" "}
        <Link to="/account/sign-in" className="font-medium text-link underline underline-offset-4">
          Sign in to your account
        </Link>
        .
      </p>
      <StatusButton pending={pending} pendingLabel="Checking..." size="lg" className="w-full">
        Continue
      </StatusButton>
    </Form>
  );
}

/**
 * The second step: the details again (they can still be corrected), the card, kept and not charged,
 * and the terms and consent above the button that names the obligation. The key is new with every
 * page and every refusal (the caller remounts the form with it), and the number and CVV are never
 * sent back.
 */
export function CheckoutCardForm({
  chosen,
  details,
  lastResult,
  checkoutKey,
  expiryYears,
  terms,
}: {
  chosen: Chosen;
  details: { fullName: string; email: string } | null;
  lastResult: SubmissionResult<string[]> | undefined;
  checkoutKey: string;
  expiryYears: number[];
  terms: OrderTerms;
}) {
  const pending = useIsPending();
  const schema = checkoutCardSchema(new Date());
  const [form, fields] = useForm<z.input<typeof schema>>({
    id: "membership-checkout",
    lastResult,
    defaultValue: details ?? undefined,
    constraint: getZodConstraint(schema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: checkoutCardSchema(new Date()) }),
  });
  return (
    <Form method="post" {...getFormProps(form)} className="grid grid-cols-1 gap-5">
      <FormAlert id={form.errorId} errors={form.errors} />
      <input type="hidden" name="step" value="card" />
      <input type="hidden" name="checkoutKey" value={checkoutKey} />
      <ChosenFields {...chosen} />
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField field={fields.fullName} label="Full name" autoComplete="name" />
        <InputField field={fields.email} label="Email" type="email" autoComplete="email" />
      </div>
      <CardFields fields={fields} expiryYears={expiryYears} />
      <FinishAndAssurances pending={pending} terms={terms} consent={fields.consent} />
    </Form>
  );
}
