import { useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import type * as React from "react";
import { Form, Link } from "react-router";
import { SectionCard } from "~/components/layout/section-card";
import { SummaryList } from "~/components/layout/summary-list";
import { Button } from "~/components/ui/button";
import { FormAlert } from "~/components/ui/form-alert";
import { InputField } from "~/components/ui/input-field";
import { RadioField } from "~/components/ui/radio-field";
import { WITHDRAWAL_SCOPES } from "~/db/enums";
import { StatusButton } from "~/components/ui/status-button";
import { useIsPending } from "~/components/ui/use-is-pending";
import { FIELD_LIMITS } from "~/features/messages/schemas";
import { HoneypotField } from "~/features/messages/ui/honeypot-field";
import { useFocusFirstInvalidField } from "~/lib/use-focus-first-invalid-field";
import { MEMBERSHIP_NUMBER_HINT } from "../withdrawal-steps";
import {
  CONTRACT_NUMBER_MAX,
  WITHDRAWAL_SCOPE_LABELS,
  withdrawalSubmissionSchema,
  type WithdrawalDetails,
} from "../withdrawal-schema";

const SCOPE_OPTIONS = WITHDRAWAL_SCOPES.map((value) => ({ value, label: WITHDRAWAL_SCOPE_LABELS[value] }));

// The forms post to the page that shows them (/withdraw, WITHDRAW_PATH), which has every step.

/** Step 1: who withdraws, from which contract, and where the acknowledgement goes. */
export function WithdrawalDetailsForm({
  lastResult,
  defaultValue,
}: {
  lastResult?: SubmissionResult<string[]>;
  defaultValue?: WithdrawalDetails;
}) {
  const [form, fields] = useForm({
    lastResult,
    defaultValue,
    constraint: getZodConstraint(withdrawalSubmissionSchema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: withdrawalSubmissionSchema }),
  });
  const pending = useIsPending({ fields: { intent: "review" } });
  useFocusFirstInvalidField(form.id, lastResult);
  return (
    <SectionCard large title="Your details" subtitle="Your name, number and e-mail are needed to find your contract.">
      <Form
        method="post"
        id={form.id}
        noValidate={form.noValidate}
        onSubmit={form.onSubmit}
        className="relative grid gap-5"
      >
        <HoneypotField />
        <FormAlert id={form.errorId} errors={form.errors} />
        <InputField field={fields.fullName} label="Full name" autoComplete="name" maxLength={FIELD_LIMITS.fullName} />
        <InputField
          field={fields.contractNumber}
          label="Order or membership number"
          description={MEMBERSHIP_NUMBER_HINT}
          autoComplete="off"
          spellCheck={false}
          maxLength={CONTRACT_NUMBER_MAX}
        />
        <InputField
          field={fields.email}
          label="E-mail address"
          description="The address you booked with. The acknowledgement goes there."
          type="email"
          autoComplete="email"
          maxLength={FIELD_LIMITS.email}
        />
        <RadioField field={fields.scope} legend="What do you withdraw from?" options={SCOPE_OPTIONS} />
        <StatusButton name="intent" value="review" pending={pending} pendingLabel="Checking..." size="lg" withoutReact>
          Continue
        </StatusButton>
      </Form>
    </SectionCard>
  );
}

/** Step 2: the details again, and the button that makes the withdrawal (Art. 11a(2): "Confirm withdrawal"). */
export function WithdrawalReview({ details, idempotencyKey }: { details: WithdrawalDetails; idempotencyKey: string }) {
  const confirming = useIsPending({ fields: { intent: "confirm" } });
  return (
    <SectionCard large title="Check and confirm" contentClassName="grid gap-6">
      <SummaryList
        className="text-base"
        rows={[
          ["Full name", details.fullName],
          ["Order or membership number", details.contractNumber],
          ["E-mail address", details.email],
          ["Withdraw from", WITHDRAWAL_SCOPE_LABELS[details.scope]],
        ]}
      />
      <p className="text-muted-foreground">
        Nothing happens until you press <strong className="text-foreground">Confirm withdrawal</strong>.
      </p>
      <Form method="post" className="flex flex-col gap-3 sm:flex-row-reverse sm:justify-start">
        <input type="hidden" name="fullName" value={details.fullName} />
        <input type="hidden" name="contractNumber" value={details.contractNumber} />
        <input type="hidden" name="email" value={details.email} />
        <input type="hidden" name="scope" value={details.scope} />
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        <StatusButton
          name="intent"
          value="confirm"
          pending={confirming}
          pendingLabel="Confirming..."
          size="lg"
          withoutReact
        >
          Confirm withdrawal
        </StatusButton>
        <Button type="submit" name="intent" value="edit" variant="outline" size="lg" disabled={confirming}>
          Change details
        </Button>
      </Form>
    </SectionCard>
  );
}

/**
 * Step 3: the receipt, word for word the same whether or not the details matched a contract.
 * `contact` is how to reach customer service (the company's e-mail and phone).
 */
export function WithdrawalReceipt({
  day,
  time,
  email,
  contact,
}: {
  day: string;
  time: string;
  email: string;
  contact: React.ReactNode;
}) {
  return (
    <SectionCard large title="Withdrawal received" contentClassName="grid gap-4 text-base">
      <p role="status">
        We received your withdrawal on <strong>{day}</strong> at <strong>{time}</strong> (Amsterdam time).
      </p>
      <p className="text-muted-foreground">
        If the details match one of our contracts, we have e-mailed an acknowledgement to{" "}
        <strong className="text-foreground wrap-anywhere">{email}</strong>, saying what your withdrawal changes and what
        we refund. If it does not arrive within a few minutes, contact our customer service at {contact}.
      </p>
      <p>
        <Button asChild variant="outline">
          <Link to="/">Return to Home</Link>
        </Button>
      </p>
    </SectionCard>
  );
}
