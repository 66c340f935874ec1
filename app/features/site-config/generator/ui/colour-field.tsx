import { useState } from "react";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { hexToHslTriplet, hslTripletToHex } from "~/features/site-config/derive-colors";
import { useHydrated } from "~/lib/use-hydrated";

interface ColourFieldProps {
  field: { id: string; errors?: string[] };
  name: string;
  label: string;
  defaultValue: string;
}

/**
 * A colour as an HSL text field ('H S% L%', the value submitted) with a colour picker kept in sync
 * both ways. The picker needs JavaScript, so it stays disabled until the page has hydrated.
 */
export function ColourField({ field, name, label, defaultValue }: ColourFieldProps) {
  const hydrated = useHydrated();
  const [text, setText] = useState(defaultValue);
  const [hex, setHex] = useState(() => hslTripletToHex(defaultValue) ?? "#000000");

  return (
    <Field field={field} label={label} description="Hue, saturation and lightness: H S% L%">
      {(control) => (
        <div className="flex gap-3">
          <input
            type="color"
            aria-label={`${label} picker`}
            value={hex}
            disabled={!hydrated}
            onChange={(event) => {
              setHex(event.target.value);
              setText(hexToHslTriplet(event.target.value));
            }}
            className="h-10 w-14 shrink-0 cursor-pointer rounded-md border border-input bg-background p-1 disabled:cursor-not-allowed"
          />
          <Input
            {...control}
            name={name}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              const picked = hslTripletToHex(event.target.value);
              if (picked) setHex(picked);
            }}
            spellCheck={false}
            autoComplete="off"
            className="font-mono"
          />
        </div>
      )}
    </Field>
  );
}
