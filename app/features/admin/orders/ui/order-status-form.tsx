import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { FormAlert } from "~/components/ui/form-alert";
import { Textarea } from "~/components/ui/textarea";
import { useIsPending } from "~/components/ui/use-is-pending";
import type { OrderStatus } from "~/db/schema";
import {
  ADMIN_STATUS_ACTIONS,
  adminTransitionsFrom,
  MAX_NOTE_LENGTH,
} from "~/features/admin/orders/order-status-actions";
import { ORDER_TRANSITIONS } from "~/features/booking/order-status";

/**
 * One button for each change the state machine allows from `status`, sharing an optional note. A
 * plain POST form: it works without JavaScript, and the server checks the change again.
 */
export function OrderStatusForm({ status, amount, error }: { status: OrderStatus; amount: number; error?: string }) {
  const pending = useIsPending();
  const targets = adminTransitionsFrom({ status, amount });
  if (targets.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        {ORDER_TRANSITIONS[status].length === 0
          ? "Ce statut est définitif : aucun changement possible."
          : "Seul un remboursement (section « Remboursements ») peut encore changer ce statut."}
      </p>
    );
  }
  return (
    <Form method="post" className="grid gap-3" aria-describedby={error ? "status-change-error" : undefined}>
      <FormAlert id="status-change-error" errors={error ? [error] : undefined} />
      <Field field={{ id: "status-note" }} label="Note (facultative)">
        <Textarea name="note" maxLength={MAX_NOTE_LENGTH} rows={3} />
      </Field>
      <div className="flex flex-wrap gap-2">
        {targets.map((target) => (
          <Button
            key={target}
            type="submit"
            name="to"
            value={target}
            disabled={pending}
            variant={target === "completed" ? "default" : "outline"}
          >
            {ADMIN_STATUS_ACTIONS[target]}
          </Button>
        ))}
      </div>
    </Form>
  );
}
