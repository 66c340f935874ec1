import { RotateCw } from "lucide-react";
import { Form } from "react-router";
import { StatusButton } from "~/components/ui/status-button";
import { useIsPending } from "~/components/ui/use-is-pending";

/**
 * Retries one piece of failed work: a plain POST of its id to the page's own action, answered by a
 * redirect back with a toast.
 */
export function RetryForm({
  id,
  label,
  describedBy,
}: {
  id: string;
  label: string;
  /** The id of the element naming the work, so that each button says what it retries. */
  describedBy: string;
}) {
  const pending = useIsPending({ fields: { id } });
  return (
    <Form method="post">
      <input type="hidden" name="id" value={id} />
      <StatusButton
        pending={pending}
        pendingLabel="Envoi..."
        icon={<RotateCw aria-hidden="true" />}
        size="sm"
        aria-describedby={describedBy}
      >
        {label}
      </StatusButton>
    </Form>
  );
}
