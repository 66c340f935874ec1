import type * as React from "react";
import { Button } from "~/components/ui/button";
import scriptUrl from "./busy-submit.script.js?url&no-inline";

/**
 * A form's submit button that is disabled and reads `busyLabel` while the form is being sent. React
 * draws that from `busy` on a hydrated page; on a page sent without React's scripts (ADR 013) a small
 * standalone module does it when the form posts.
 */
export function BusySubmitButton({
  busy,
  label,
  busyLabel,
  ...props
}: Omit<React.ComponentProps<typeof Button>, "type" | "children" | "disabled"> & {
  busy: boolean;
  label: string;
  busyLabel: string;
}) {
  return (
    <>
      <script async type="module" src={scriptUrl} />
      <Button type="submit" disabled={busy} data-busy-label={busyLabel} {...props}>
        {busy ? busyLabel : label}
      </Button>
    </>
  );
}
