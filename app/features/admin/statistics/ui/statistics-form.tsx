import { getFormProps, getSelectProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Field, withoutKey } from "~/components/ui/field";
import { InputField } from "~/components/ui/input-field";
import { FormAlert } from "~/components/ui/form-alert";
import { NativeSelect } from "~/components/ui/native-select";
import {
  GRANULARITIES,
  GRANULARITY_LABELS,
  statisticsPeriodSchema,
  type StatisticsPeriod,
} from "~/features/admin/statistics/statistics-period";

/** Chooses the period and its grouping; a GET form, so the figures' address can be shared or bookmarked. */
export function StatisticsForm({
  period,
  lastResult,
  today,
}: {
  /** What the fields show: the period on display, or the defaults. */
  period: StatisticsPeriod;
  /** A refused query, with what was typed and why it was refused. */
  lastResult: SubmissionResult<string[]> | null;
  today: string;
}) {
  const schema = statisticsPeriodSchema(today);
  const [form, fields] = useForm({
    id: "statistics-period",
    lastResult,
    defaultValue: period,
    constraint: getZodConstraint(schema),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
  });
  return (
    <Form method="get" {...getFormProps(form)} className="grid gap-4">
      <FormAlert id={form.errorId} errors={form.errors} />
      <div className="grid gap-4 sm:grid-cols-[1fr_1fr_1fr_auto]">
        <InputField field={fields.from} label="Du" type="date" />
        <InputField field={fields.to} label="Au (inclus)" type="date" />
        <Field field={fields.granularity} label="Regrouper par">
          <NativeSelect {...withoutKey(getSelectProps(fields.granularity))}>
            {GRANULARITIES.map((granularity) => (
              <option key={granularity} value={granularity}>
                {GRANULARITY_LABELS[granularity]}
              </option>
            ))}
          </NativeSelect>
        </Field>
        {/* Level with the inputs (under their labels' line) even when a message grows a field. */}
        <Button type="submit" className="sm:mt-5.5">
          Afficher
        </Button>
      </div>
    </Form>
  );
}
