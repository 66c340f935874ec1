import { type FieldMetadata, getFormProps, getSelectProps, type SubmissionResult, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { useCurrency } from "~/components/layout/currency-menu";
import { SectionCard } from "~/components/layout/section-card";
import { SummaryList } from "~/components/layout/summary-list";
import { NativeSelect } from "~/components/ui/native-select";
import { currencyByCode, formatPrice } from "~/lib/currency";
import { AIRPORT_OPTIONS } from "~/features/booking/airports";
import { ADULTS_RANGE, CHILDREN_RANGE } from "~/features/booking/passengers";
import { bookingAmount, trialNote } from "~/features/booking/pricing";
import { freePassengers } from "~/features/memberships/fast-track-allowance";
import { formatAmount, toMinorUnits } from "~/lib/currency";
import { BOOKING_SCHEMA } from "~/features/booking/schema";
import { useFocusFirstInvalidField } from "~/lib/use-focus-first-invalid-field";
import { siteConfig } from "../../../../site.config";
import { FlightDateField } from "./flight-date-field";
import { Field, withoutKey } from "~/components/ui/field";
import { InputField } from "~/components/ui/input-field";
import { FormAlert } from "~/components/ui/form-alert";
import { StatusButton } from "~/components/ui/status-button";
import { useIsPending } from "~/components/ui/use-is-pending";
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
    <Field field={field} label={label}>
      <NativeSelect {...withoutKey(getSelectProps(field))} data-unit-price={toMinorUnits(price)}>
        {Array.from({ length: max - min + 1 }, (_, index) => min + index).map((count) => (
          <option key={count} value={count}>
            {count} x {formatPrice(price, currency.code)}
          </option>
        ))}
      </NativeSelect>
    </Field>
  );
}

export function BookingForm({
  lastResult,
  idempotencyKey,
  earliestFlightDate,
  account = null,
  membership = null,
}: {
  lastResult: SubmissionResult<string[]> | undefined;
  idempotencyKey: string;
  earliestFlightDate: string;
  /** The signed-in person: their details fill the form. */
  account?: { firstName: string; lastName: string; email: string } | null;
  /**
   * Their membership's free accesses (ADR 029): the line saying what is left or from when, and how
   * many passengers this booking gets free. The server prices the order again when it is sent.
   */
  membership?: { line: string | null; freeLeft: number } | null;
}) {
  const currency = useCurrency();
  const pending = useIsPending();
  const [form, fields] = useForm({
    id: "booking",
    lastResult,
    defaultValue: { adults: String(ADULTS_RANGE.min), children: String(CHILDREN_RANGE.min), ...account },
    constraint: getZodConstraint(BOOKING_SCHEMA),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: BOOKING_SCHEMA }),
  });
  useFocusFirstInvalidField(form.id, lastResult);
  const adults = countOf(fields.adults.value, ADULTS_RANGE.min);
  const children = countOf(fields.children.value, CHILDREN_RANGE.min);
  const { adultPrice, childPrice } = siteConfig.fastTrack;
  const freeLeft = membership?.freeLeft ?? 0;
  const free = freePassengers({ adults, children }, freeLeft);

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
          <InputField field={fields.firstName} label="First Name" autoComplete="given-name" />
          <InputField field={fields.lastName} label="Last Name" autoComplete="family-name" />
          <InputField field={fields.email} label="Email" type="email" autoComplete="email" />
          <InputField field={fields.phone} label="Phone (optional)" type="tel" autoComplete="tel" />
        </SectionCard>
        <SectionCard title="Flight Information" contentClassName="grid gap-5 sm:grid-cols-2">
          <Field field={fields.airport} label="Airport" className="sm:col-span-2">
            <NativeSelect {...withoutKey(getSelectProps(fields.airport))}>
              <option value="">Select an airport</option>
              {AIRPORT_OPTIONS.map((airport) => (
                <option key={airport} value={airport}>
                  {airport}
                </option>
              ))}
            </NativeSelect>
          </Field>
          <Field field={fields.flightDate} label="Flight Date" className="sm:col-span-2">
            {(control) => <FlightDateField field={fields.flightDate} control={control} earliest={earliestFlightDate} />}
          </Field>
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
            data-free-accesses={freeLeft}
            aria-live="polite"
          >
            {formatAmount(
              bookingAmount({ adults: adults - free.adults, children: children - free.children }),
              currency.code,
            )}
          </span>
        </p>
        <noscript>
          <p className="text-sm text-muted-foreground">The total for your passengers is shown on the next step.</p>
        </noscript>
        {membership ? (
          membership.line ? (
            <p className="rounded-md bg-primary-light p-3 text-sm font-medium" data-testid="free-accesses">
              {membership.line}
            </p>
          ) : null
        ) : (
          <p className="text-sm text-muted-foreground">{trialNote(currency.code)}</p>
        )}
        <StatusButton pending={pending} pendingLabel="Processing..." size="lg" className="w-full" withoutReact>
          Continue to Payment
        </StatusButton>
        <script async type="module" src={bookingTotalScriptUrl} />
      </SectionCard>
    </Form>
  );
}
