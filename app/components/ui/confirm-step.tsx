import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { Button } from "./button";

/** The field the confirmation step's button sends. */
export const CONFIRMED_FIELD = "confirmed";

/**
 * A step that asks "are you sure?" before something that cannot be undone: what it does, the button
 * that does it, and a way back. Shown by a link with a query, so it works without JavaScript. It sends
 * `confirmed=yes` (CONFIRMED_FIELD) beside its own fields: a server that wants the step asks for it.
 */
export function ConfirmStep({
  action,
  question,
  consequence,
  confirmLabel,
  backTo,
  backLabel,
  children,
}: {
  action: string;
  question: string;
  consequence: string;
  confirmLabel: string;
  backTo: string;
  backLabel: string;
  /** The fields the step sends (hidden ones, or choices beside the button). */
  children?: ReactNode;
}) {
  return (
    <Form
      method="post"
      action={action}
      className="grid gap-3 rounded-lg border border-destructive/40 bg-destructive/5 p-4"
      aria-label={question}
    >
      <p className="font-semibold">{question}</p>
      <p className="text-sm">{consequence}</p>
      <input type="hidden" name={CONFIRMED_FIELD} value="yes" />
      {children}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" variant="destructive">
          {confirmLabel}
        </Button>
        <Button asChild variant="outline">
          <Link to={backTo}>{backLabel}</Link>
        </Button>
      </div>
    </Form>
  );
}
