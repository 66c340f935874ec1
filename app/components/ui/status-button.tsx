import type * as React from "react";
import { Button } from "~/components/ui/button";
import scriptUrl from "./status-button.script.js?url&no-inline";

/**
 * A form's submit button, disabled and reading `pendingLabel` while the form is being sent (`pending`,
 * from useIsPending or a fetcher). On a page sent without React's scripts (ADR 013) the form posts
 * natively: `withoutReact` brings the small module that shows the pending label then.
 */
export function StatusButton({
  pending,
  pendingLabel,
  icon,
  withoutReact,
  children,
  ...props
}: Omit<React.ComponentProps<typeof Button>, "type" | "disabled"> & {
  pending: boolean;
  pendingLabel: string;
  /** Drawn before the label, in both states. */
  icon?: React.ReactNode;
  withoutReact?: boolean;
}) {
  return (
    <>
      {withoutReact ? <script async type="module" src={scriptUrl} /> : null}
      <Button type="submit" disabled={pending} data-pending-label={withoutReact ? pendingLabel : undefined} {...props}>
        {icon}
        {pending ? pendingLabel : children}
      </Button>
    </>
  );
}
