import { formatDateTimeFr } from "~/lib/format-fr";
import type { OrderDetails } from "~/features/admin/order-details.server";
import { orderStatusLabel } from "~/features/booking/order-status";

const ACTOR_LABELS: Record<string, string> = { customer: "le client", system: "le système" };

/** The order's status changes, newest first, each with who made it and why. */
export function OrderHistory({ events }: { events: OrderDetails["history"] }) {
  if (events.length === 0) return <p className="text-sm text-muted-foreground">Aucun changement enregistré.</p>;
  return (
    <ol className="grid gap-3 text-sm" aria-label="Historique, du plus récent au plus ancien">
      {events.map((event) => (
        <li key={event.id} className="border-l-2 border-primary/40 pl-3">
          <p className="font-medium">
            {event.fromStatus
              ? `${orderStatusLabel(event.fromStatus)} → ${orderStatusLabel(event.toStatus)}`
              : `Commande créée (${orderStatusLabel(event.toStatus)})`}
          </p>
          <p className="text-muted-foreground">
            {formatDateTimeFr(event.createdAt)} · par{" "}
            <span className="wrap-anywhere">{ACTOR_LABELS[event.actorLabel] ?? event.actorLabel}</span>
          </p>
          {event.note ? <p className="mt-1 whitespace-pre-line wrap-anywhere">{event.note}</p> : null}
        </li>
      ))}
    </ol>
  );
}
