import { type FieldMetadata, getSelectProps } from "@conform-to/react";
import { Field, withoutKey } from "~/components/ui/field";
import { InputField } from "~/components/ui/input-field";
import { NativeSelect } from "~/components/ui/native-select";
import { CVV_MAX_LENGTH, EXPIRY_MONTHS } from "../card";

/** Room for 19 digits and the spaces people type between groups. */
const CARD_NUMBER_MAX_LENGTH = 23;

/** The card's number, expiry and CVV, for any form that takes a card (`cardSchema`'s fields). */
export function CardFields({
  fields,
  expiryYears,
}: {
  fields: {
    cardNumber: FieldMetadata<string>;
    expiryMonth: FieldMetadata<number>;
    expiryYear: FieldMetadata<number>;
    cvv: FieldMetadata<string>;
  };
  expiryYears: number[];
}) {
  return (
    <>
      <InputField
        field={fields.cardNumber}
        label="Card Number"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="1234 5678 9012 3456"
        maxLength={CARD_NUMBER_MAX_LENGTH}
      />
      <div className="grid grid-cols-2 gap-4 sm:grid-cols-3">
        <Field field={fields.expiryMonth} label="Expiry Month">
          <NativeSelect {...withoutKey(getSelectProps(fields.expiryMonth))} autoComplete="cc-exp-month">
            <option value="">MM</option>
            {EXPIRY_MONTHS.map((month) => (
              <option key={month} value={month}>
                {month}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <Field field={fields.expiryYear} label="Expiry Year">
          <NativeSelect {...withoutKey(getSelectProps(fields.expiryYear))} autoComplete="cc-exp-year">
            <option value="">YYYY</option>
            {expiryYears.map((year) => (
              <option key={year} value={year}>
                {year}
              </option>
            ))}
          </NativeSelect>
        </Field>
        <InputField
          field={fields.cvv}
          label="CVV"
          className="col-span-2 sm:col-span-1"
          inputMode="numeric"
          autoComplete="cc-csc"
          maxLength={CVV_MAX_LENGTH}
        />
      </div>
    </>
  );
}
