import { formatDateTimeFr } from "~/lib/format-fr";

const ACTOR_LABELS: Record<string, string> = { customer: "le client", system: "le système" };

export interface StatusEvent {
  id: string;
  /** Null for the record's creation. */
  fromStatus: string | null;
  toStatus: string;
  /** "customer", "system", or the admin's e-mail address. */
  actorLabel: string;
  note: string | null;
  createdAt: Date;
}

/**
 * A record's status changes (an order's, a membership's), newest first, each with who made it and
 * why. A change that kept the status (a renewal, say) shows the status once, with its note.
 */
export function StatusHistory({
  events,
  statusLabel,
  created,
}: {
  events: StatusEvent[];
  statusLabel: (status: string) => string;
  /** The first entry's title, e.g. "Commande créée". */
  created: string;
}) {
  if (events.length === 0) return <p className="text-sm text-muted-foreground">Aucun changement enregistré.</p>;
  return (
    <ol className="grid gap-3 text-sm" aria-label="Historique, du plus récent au plus ancien">
      {events.map((event) => (
        <li key={event.id} className="border-l-2 border-primary/40 pl-3">
          <p className="font-medium">
            {event.fromStatus === null
              ? `${created} (${statusLabel(event.toStatus)})`
              : event.fromStatus === event.toStatus
                ? statusLabel(event.toStatus)
                : `${statusLabel(event.fromStatus)} → ${statusLabel(event.toStatus)}`}
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
