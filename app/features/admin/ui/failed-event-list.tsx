import type { FailedEventRow } from "~/features/provider-events/failed-events.server";
import { formatDateTimeFr } from "~/lib/format-fr";
import { FailedWorkCard, retriedOf } from "./failed-work-card";

export function FailedEventList({ events }: { events: FailedEventRow[] }) {
  return (
    <ul className="grid gap-3" aria-label="Événements Stripe en échec">
      {events.map((event) => (
        <FailedWorkCard
          key={event.id}
          id={event.id}
          heading={`${event.type} · ${event.id}`}
          details={[
            event.objectRef ? `Objet ${event.objectRef}` : "Sans objet",
            `premier échec le ${formatDateTimeFr(event.firstFailedAt)}`,
            `dernier le ${formatDateTimeFr(event.lastFailedAt)}`,
            `${event.attempts} tentative${event.attempts > 1 ? "s" : ""}`,
          ]}
          error={event.lastError}
          retried={retriedOf(event)}
          retryLabel="Relancer"
        />
      ))}
    </ul>
  );
}
