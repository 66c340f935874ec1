import { Check, RotateCcw } from "lucide-react";
import { Form } from "react-router";
import { StatusButton } from "~/components/ui/status-button";
import { useIsPending } from "~/components/ui/use-is-pending";
import { cn } from "~/lib/class-names";
import { MESSAGE_STATUS_LABELS, type MessageKind, type MessageStatus } from "~/features/admin/messages/message-status";

export function MessageStatusBadge({ status }: { status: MessageStatus }) {
  return (
    <span
      className={cn(
        "inline-flex rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap",
        status === "handled" ? "bg-green-100 text-green-800" : "bg-yellow-100 text-yellow-900",
      )}
    >
      {MESSAGE_STATUS_LABELS[status]}
    </span>
  );
}

/**
 * Marks one message handled, or back to new. A plain POST to this page (keeping its filters and
 * page in the URL), answered by a redirect back to it with a toast.
 */
export function MessageStatusForm({
  kind,
  id,
  status,
  describedBy,
}: {
  kind: MessageKind;
  id: string;
  status: MessageStatus;
  /** The id of the element naming the message, so that each button says which message it changes. */
  describedBy: string;
}) {
  const pending = useIsPending({ fields: { id } });
  const next: MessageStatus = status === "handled" ? "new" : "handled";
  return (
    <Form method="post">
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="status" value={next} />
      <StatusButton
        pending={pending}
        pendingLabel="Enregistrement..."
        icon={next === "handled" ? <Check aria-hidden="true" /> : <RotateCcw aria-hidden="true" />}
        size="sm"
        variant={next === "handled" ? "default" : "outline"}
        aria-describedby={describedBy}
      >
        {next === "handled" ? "Marquer comme traité" : "Remettre en nouveau"}
      </StatusButton>
    </Form>
  );
}
