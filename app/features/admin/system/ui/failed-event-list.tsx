import type { FailedEventRow } from "~/features/provider-events/failed-events.server";
import { formatDateTimeFr } from "~/lib/format-fr";
import { FailedWorkCard, retriedOf } from "./failed-work-card";

/** The failed events; `retryable` when this server takes payments through Stripe, which a retry reads. */
export function FailedEventList({ events, retryable }: { events: FailedEventRow[]; retryable: boolean }) {
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
          retryLabel={retryable ? "Relancer" : null}
        />
      ))}
    </ul>
  );
}
