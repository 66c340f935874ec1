import type { StatusTone } from "~/components/ui/status-badge";

/** Where a mail of the outbox stands, in the back office's words, and its colour. */
export const OUTBOX_STATUSES: Record<string, { label: string; tone: StatusTone }> = {
  pending: { label: "En file d'attente", tone: "info" },
  sending: { label: "En cours d'envoi", tone: "info" },
  sent: { label: "Envoyé", tone: "good" },
  failed: { label: "Échec", tone: "bad" },
};

export const outboxStatus = (status: string) => OUTBOX_STATUSES[status] ?? { label: status, tone: "neutral" as const };
