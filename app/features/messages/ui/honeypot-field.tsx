import { useId } from "react";
import { HONEYPOT_FIELD } from "~/features/messages/honeypot";

/** The bot trap every public form carries: out of sight, out of the tab order, hidden from screen readers. */
export function HoneypotField() {
  const id = useId();
  return (
    <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
      <label htmlFor={id}>Leave this field empty</label>
      <input id={id} name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}
