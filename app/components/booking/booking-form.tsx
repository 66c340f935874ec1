import { getFormProps, getInputProps, getSelectProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { useCurrency } from "~/components/site/currency-menu";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { formatPrice } from "~/features/currency/currency";
import { AIRPORT_OPTIONS } from "~/features/booking/airports";
import { ADULTS_RANGE, CHILDREN_RANGE } from "~/features/booking/passengers";
import { bookingAmount, formatAmount, trialNote } from "~/features/booking/pricing";
import { bookingSchema } from "~/features/booking/schema";
import { siteConfig } from "../../../site.config";
import { FlightDateField } from "./flight-date-field";
import { FormAlert, FormField, withoutKey } from "./form-field";
import { useSubmitting } from "./use-submitting";

const countOptions = ({ min, max }: { min: number; max: number }) =>
  Array.from({ length: max - min + 1 }, (_, index) => min + index);

const countOf = (value: unknown, fallback: number) => {
  const count = Number(value);
  return Number.isInteger(count) ? count : fallback;
};

export function BookingForm({
  lastResult,
  idempotencyKey,
  earliestFlightDate,
}: {
  lastResult: SubmissionResult<string[]> | undefined;
  idempotencyKey: string;
  earliestFlightDate: string;
}) {
  const currency = useCurrency();
  const busy = useSubmitting();
  const [form, fields] = useForm({
    id: "booking",
    lastResult,
    defaultValue: { adults: String(ADULTS_RANGE.min), children: String(CHILDREN_RANGE.min) },
    constraint: getZodConstraint(bookingSchema(new Date())),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: bookingSchema(new Date()) }),
  });
  const adults = countOf(fields.adults.value, ADULTS_RANGE.min);
  const children = countOf(fields.children.value, CHILDREN_RANGE.min);
  const { adultPrice, childPrice } = siteConfig.fastTrack;

  return (
    <Form
      method="post"
      {...getFormProps(form)}
      className="mx-auto grid max-w-6xl gap-6 px-4 pb-16 sm:px-6 lg:grid-cols-[1fr_22rem]"
    >
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <div className="grid content-start gap-6">
        <FormAlert id={form.errorId} errors={[...(form.errors ?? []), ...(fields.idempotencyKey.errors ?? [])]} />
        <Card>
          <CardHeader>
            <CardTitle>
              <h2 className="text-lg">Personal Information</h2>
            </CardTitle>
          </CardHeader>
          <CardContent className="grid gap-5 sm:grid-cols-2">
            <FormField field={fields.firstName} label="First Name">
              <Input {...withoutKey(getInputProps(fields.firstName, { type: "text" }))} autoComplete="given-name" />
            </FormField>
            <FormField field={fields.lastName} label="Last Name">
              <Input {...withoutKey(getInputProps(fields.lastName, { type: "text" }))} autoComplete="family-name" />
            </FormField>
            <FormField field={fields.email} label="Email">
              <Input {...withoutKey(getInputProps(fields.email, { type: "email" }))} autoComplete="email" />
            </FormField>
            <FormField field={fields.phone} label="Phone (optional)">
              <Input {...withoutKey(getInputProps(fields.phone, { type: "tel" }))} autoComplete="tel" />
            </FormField>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>
              <h2 className="text-lg">Flight Information</h2>
            </CardTitle>
          </CardHeader>
          <CardContent className="grid gap-5 sm:grid-cols-2">
            <FormField field={fields.airport} label="Airport" className="sm:col-span-2">
              <NativeSelect {...withoutKey(getSelectProps(fields.airport))}>
                <option value="">Select an airport</option>
                {AIRPORT_OPTIONS.map((airport) => (
                  <option key={airport} value={airport}>
                    {airport}
                  </option>
                ))}
              </NativeSelect>
            </FormField>
            <FormField field={fields.flightDate} label="Flight Date" className="sm:col-span-2">
              <FlightDateField field={fields.flightDate} earliest={earliestFlightDate} />
            </FormField>
            <FormField field={fields.adults} label="Adults">
              <NativeSelect {...withoutKey(getSelectProps(fields.adults))}>
                {countOptions(ADULTS_RANGE).map((count) => (
                  <option key={count} value={count}>
                    {count} x {formatPrice(adultPrice, currency.code)}
                  </option>
                ))}
              </NativeSelect>
            </FormField>
            <FormField field={fields.children} label="Children">
              <NativeSelect {...withoutKey(getSelectProps(fields.children))}>
                {countOptions(CHILDREN_RANGE).map((count) => (
                  <option key={count} value={count}>
                    {count} x {formatPrice(childPrice, currency.code)}
                  </option>
                ))}
              </NativeSelect>
            </FormField>
          </CardContent>
        </Card>
      </div>

      <Card className="h-fit lg:sticky lg:top-24">
        <CardHeader>
          <CardTitle>
            <h2 className="text-lg">Your Booking</h2>
          </CardTitle>
        </CardHeader>
        <CardContent className="grid gap-4">
          <dl className="grid gap-2 text-sm">
            <div className="flex justify-between">
              <dt className="text-muted-foreground">Adults</dt>
              <dd>
                {adults} x {formatPrice(adultPrice, currency.code)}
              </dd>
            </div>
            <div className="flex justify-between">
              <dt className="text-muted-foreground">Children</dt>
              <dd>
                {children} x {formatPrice(childPrice, currency.code)}
              </dd>
            </div>
            <div className="flex justify-between border-t pt-3 text-base font-semibold">
              <dt>Total</dt>
              <dd data-testid="booking-total" aria-live="polite">
                {formatAmount(bookingAmount({ adults, children }), currency.code)}
              </dd>
            </div>
          </dl>
          <noscript>
            <p className="text-sm text-muted-foreground">The total for your passengers is shown on the next step.</p>
          </noscript>
          <p className="text-sm text-muted-foreground">{trialNote(currency.code)}</p>
          <Button type="submit" size="lg" className="w-full" disabled={busy}>
            {busy ? "Processing..." : "Continue to Payment"}
          </Button>
        </CardContent>
      </Card>
    </Form>
  );
}
