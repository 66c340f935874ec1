import {
  type FieldMetadata,
  getFormProps,
  getInputProps,
  getSelectProps,
  type SubmissionResult,
  useForm,
} from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { useCurrency } from "~/components/layout/currency-menu";
import { BusySubmitButton } from "~/components/ui/busy-submit-button";
import { SectionCard } from "~/components/layout/section-card";
import { SummaryList } from "~/components/layout/summary-list";
import { Input } from "~/components/ui/input";
import { NativeSelect } from "~/components/ui/native-select";
import { currencyByCode, formatPrice } from "~/lib/currency";
import { AIRPORT_OPTIONS } from "~/features/booking/airports";
import { ADULTS_RANGE, CHILDREN_RANGE } from "~/features/booking/passengers";
import { bookingAmount, formatAmount, toMinorUnits, trialNote } from "~/features/booking/pricing";
import { BOOKING_SCHEMA } from "~/features/booking/schema";
import { useFocusFirstInvalidField } from "~/lib/use-focus-first-invalid-field";
import { siteConfig } from "../../../../site.config";
import { FlightDateField } from "./flight-date-field";
import { FormAlert, FormField, withoutKey } from "~/components/ui/form-field";
import { useSubmitting } from "~/components/ui/use-submitting";
import bookingTotalScriptUrl from "./booking-total.script.js?url&no-inline";

const countOf = (value: unknown, fallback: number) => {
  const count = Number(value);
  return Number.isInteger(count) ? count : fallback;
};

/** A passenger count, each option showing the count and the price per passenger. */
function PassengerCountField({
  field,
  label,
  range: { min, max },
  price,
}: {
  field: FieldMetadata<number>;
  label: string;
  range: { min: number; max: number };
  price: number;
}) {
  const currency = useCurrency();
  return (
    <FormField field={field} label={label}>
      <NativeSelect {...withoutKey(getSelectProps(field))} data-unit-price={toMinorUnits(price)}>
        {Array.from({ length: max - min + 1 }, (_, index) => min + index).map((count) => (
          <option key={count} value={count}>
            {count} x {formatPrice(price, currency.code)}
          </option>
        ))}
      </NativeSelect>
    </FormField>
  );
}

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
    constraint: getZodConstraint(BOOKING_SCHEMA),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: BOOKING_SCHEMA }),
  });
  useFocusFirstInvalidField(form.id, lastResult);
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
        <SectionCard title="Personal Information" contentClassName="grid gap-5 sm:grid-cols-2">
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
        </SectionCard>
        <SectionCard title="Flight Information" contentClassName="grid gap-5 sm:grid-cols-2">
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
          <PassengerCountField field={fields.adults} label="Adults" range={ADULTS_RANGE} price={adultPrice} />
          <PassengerCountField field={fields.children} label="Children" range={CHILDREN_RANGE} price={childPrice} />
        </SectionCard>
      </div>

      <SectionCard title="Your Booking" className="h-fit lg:sticky lg:top-24" contentClassName="grid gap-4">
        <SummaryList
          rows={[
            [
              "Adults",
              <span data-passengers-row={fields.adults.name}>
                {adults} x {formatPrice(adultPrice, currency.code)}
              </span>,
            ],
            [
              "Children",
              <span data-passengers-row={fields.children.name}>
                {children} x {formatPrice(childPrice, currency.code)}
              </span>,
            ],
          ]}
        />
        <p className="flex justify-between border-t pt-3 font-semibold">
          <span>Total</span>
          <span
            data-testid="booking-total"
            data-booking-total
            data-currency-symbol={currencyByCode(currency.code).symbol}
            aria-live="polite"
          >
            {formatAmount(bookingAmount({ adults, children }), currency.code)}
          </span>
        </p>
        <noscript>
          <p className="text-sm text-muted-foreground">The total for your passengers is shown on the next step.</p>
        </noscript>
        <p className="text-sm text-muted-foreground">{trialNote(currency.code)}</p>
        <BusySubmitButton
          busy={busy}
          label="Continue to Payment"
          busyLabel="Processing..."
          size="lg"
          className="w-full"
        />
        <script async type="module" src={bookingTotalScriptUrl} />
      </SectionCard>
    </Form>
  );
}
