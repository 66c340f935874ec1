import { useState } from "react";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { hexToHslTriplet, hslTripletToHex } from "~/features/site-config/derive-colors";
import { useHydrated } from "~/lib/use-hydrated";
import { FieldError } from "./text-field";

interface ColourFieldProps {
  name: string;
  label: string;
  defaultValue: string;
  error?: string;
}

/**
 * A colour as an HSL text field ('H S% L%', the value submitted) with a colour picker kept in sync
 * both ways. The picker needs JavaScript, so it stays disabled until the page has hydrated.
 */
export function ColourField({ name, label, defaultValue, error }: ColourFieldProps) {
  const hydrated = useHydrated();
  const [text, setText] = useState(defaultValue);
  const [hex, setHex] = useState(() => hslTripletToHex(defaultValue) ?? "#000000");
  const hintId = `${name}-hint`;
  const errorId = `${name}-error`;

  return (
    <div className="grid gap-2">
      <Label htmlFor={name}>{label}</Label>
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
          id={name}
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
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
        />
      </div>
      <p id={hintId} className="text-xs text-muted-foreground">
        Hue, saturation and lightness: H S% L%
      </p>
      <FieldError id={errorId} error={error} />
    </div>
  );
}
