import { Form } from "react-router";
import { StatusButton } from "~/components/ui/status-button";
import { useIsPending } from "~/components/ui/use-is-pending";
import { KEEP_PLAN_FIELD, PLAN_CHANGE_FIELD, type AdminPlanChange } from "../plan-change-fr";

/** The admin's plan change: what it does, and a button that says it; or the move already asked for. */
export function MembershipPlanForm({ change }: { change: (AdminPlanChange & { key: string }) | null }) {
  const pending = useIsPending({ fields: { [PLAN_CHANGE_FIELD]: change && "to" in change ? change.to : "" } });
  const keeping = useIsPending({ fields: { [KEEP_PLAN_FIELD]: "yes" } });
  if (!change) return null;
  if ("scheduled" in change) {
    return (
      <Form method="post" className="grid gap-2 border-t pt-4 text-sm">
        <p>{change.scheduled}</p>
        <StatusButton name={KEEP_PLAN_FIELD} value="yes" pending={keeping} pendingLabel="Annulation…" variant="outline">
          {change.keep}
        </StatusButton>
      </Form>
    );
  }
  return (
    <Form method="post" className="grid gap-2 border-t pt-4 text-sm">
      <p className="font-medium">Changer de formule</p>
      <p className="text-muted-foreground">{change.explanation}</p>
      <input type="hidden" name="key" value={change.key} />
      {change.expectedAmount !== null ? (
        <input type="hidden" name="expectedAmount" value={change.expectedAmount} />
      ) : null}
      <StatusButton
        name={PLAN_CHANGE_FIELD}
        value={change.to}
        pending={pending}
        pendingLabel="Modification…"
        variant="outline"
      >
        {change.button}
      </StatusButton>
    </Form>
  );
}
