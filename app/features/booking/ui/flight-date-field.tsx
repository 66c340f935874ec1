import { type FieldMetadata, getInputProps, useInputControl } from "@conform-to/react";
import { startOfToday } from "date-fns";
import { CalendarIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "~/components/ui/button";
import { Calendar } from "~/components/ui/calendar";
import { fieldIds, withoutKey, type FieldControlProps } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { Popover, PopoverContent, PopoverTrigger } from "~/components/ui/popover";
import { dateFromIsoDate, formatFlightDate, localIsoDate } from "~/features/booking/flight-date";
import { useHydrated } from "~/lib/use-hydrated";

/**
 * The flight date: a calendar in a popover once JavaScript runs, a native date input before (and
 * without) it. Both refuse past days; the server checks again.
 */
export function FlightDateField({
  field,
  control,
  earliest,
}: {
  field: FieldMetadata<string>;
  /** From the Field around it: the id, validity and description to carry. */
  control: FieldControlProps;
  earliest: string;
}) {
  const hydrated = useHydrated();
  if (hydrated) return <FlightDatePicker field={field} control={control} />;
  return <Input {...withoutKey(getInputProps(field, { type: "date" }))} {...control} min={earliest} />;
}

function FlightDatePicker({ field, control }: { field: FieldMetadata<string>; control: FieldControlProps }) {
  const input = useInputControl(field);
  const [open, setOpen] = useState(false);
  const selected = input.value ? dateFromIsoDate(input.value) : undefined;
  const valueId = `${control.id}-value`;
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button
          {...control}
          type="button"
          variant="outline"
          aria-labelledby={`${fieldIds(control.id).label} ${valueId}`}
          className="w-full justify-start text-base font-normal data-[empty=true]:text-muted-foreground md:text-sm"
          data-empty={!input.value}
        >
          <CalendarIcon aria-hidden="true" />
          <span id={valueId}>{input.value ? formatFlightDate(input.value) : "Select a date"}</span>
        </Button>
      </PopoverTrigger>
      <PopoverContent className="w-auto p-0" align="start">
        <Calendar
          mode="single"
          selected={selected}
          defaultMonth={selected}
          disabled={{ before: startOfToday() }}
          onSelect={(date) => {
            input.change(date ? localIsoDate(date) : "");
            setOpen(false);
          }}
          autoFocus
        />
      </PopoverContent>
    </Popover>
  );
}
