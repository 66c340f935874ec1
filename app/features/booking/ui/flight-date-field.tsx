import { type FieldMetadata, getInputProps, useInputControl } from "@conform-to/react";
import { startOfToday } from "date-fns";
import { CalendarIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "~/components/ui/button";
import { Calendar } from "~/components/ui/calendar";
import { Input } from "~/components/ui/input";
import { Popover, PopoverContent, PopoverTrigger } from "~/components/ui/popover";
import { dateFromIsoDate, formatFlightDate, localIsoDate } from "~/features/booking/flight-date";
import { useHydrated } from "~/lib/use-hydrated";
import { labelId } from "~/components/ui/form-field";

/**
 * The flight date: a calendar in a popover once JavaScript runs, a native date input before (and
 * without) it. Both refuse past days; the server checks again.
 */
export function FlightDateField({ field, earliest }: { field: FieldMetadata<string>; earliest: string }) {
  const hydrated = useHydrated();
  if (hydrated) return <FlightDatePicker field={field} />;
  const { key, ...props } = getInputProps(field, { type: "date" });
  return <Input key={key} {...props} min={earliest} />;
}

function FlightDatePicker({ field }: { field: FieldMetadata<string> }) {
  const control = useInputControl(field);
  const [open, setOpen] = useState(false);
  const selected = control.value ? dateFromIsoDate(control.value) : undefined;
  const valueId = `${field.id}-value`;
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button
          id={field.id}
          type="button"
          variant="outline"
          aria-labelledby={`${labelId(field)} ${valueId}`}
          aria-invalid={!field.valid || undefined}
          aria-describedby={field.valid ? undefined : field.errorId}
          className="w-full justify-start text-base font-normal data-[empty=true]:text-muted-foreground md:text-sm"
          data-empty={!control.value}
        >
          <CalendarIcon aria-hidden="true" />
          <span id={valueId}>{control.value ? formatFlightDate(control.value) : "Select a date"}</span>
        </Button>
      </PopoverTrigger>
      <PopoverContent className="w-auto p-0" align="start">
        <Calendar
          mode="single"
          selected={selected}
          defaultMonth={selected}
          disabled={{ before: startOfToday() }}
          onSelect={(date) => {
            control.change(date ? localIsoDate(date) : "");
            setOpen(false);
          }}
          autoFocus
        />
      </PopoverContent>
    </Popover>
  );
}
