import type { DataRequestAction } from "~/db/schema";
import { formatDateTimeFr } from "~/lib/format-fr";
import type { DataRequestEvent } from "~/features/privacy/data-requests.server";

const ACTION_LABELS: Record<DataRequestAction, string> = {
  recorded: "Demande enregistrée",
  exported: "Données exportées",
  erased: "Données effacées",
};

/** The words for the counts an export or an erasure records (personal-data.server.ts). */
const COUNT_LABELS: Record<string, string> = {
  accounts: "comptes",
  customers: "clients",
  orders: "commandes",
  payments: "paiements",
  memberships: "adhésions",
  membershipEvents: "changements d'adhésion",
  invoices: "factures d'adhésion",
  refunds: "remboursements",
  contactMessages: "messages de contact",
  unsubscribeRequests: "demandes de désinscription",
  withdrawals: "rétractations",
  emails: "e-mails",
  membershipsCancelled: "adhésions résiliées",
  membershipsAnonymised: "adhésions anonymisées",
  ordersDeleted: "commandes non payées supprimées",
  orderEvents: "entrées d'historique de commande",
  paymentAttempts: "tentatives de paiement refusées",
  customersDeleted: "clients supprimés",
  customersAnonymised: "clients anonymisés",
  withdrawalsDeleted: "rétractations sans correspondance supprimées",
  withdrawalsAnonymised: "rétractations anonymisées",
};

function countsText(counts: Record<string, number>) {
  // In the labels' order: the database keeps a JSON object's keys in an order of its own.
  const nonZero = Object.entries(COUNT_LABELS).filter(([key]) => (counts[key] ?? 0) > 0);
  if (nonZero.length === 0) return "aucune donnée trouvée";
  return nonZero.map(([key, label]) => `${label} : ${counts[key]}`).join(", ");
}

/** Who did what about the request, and when, oldest first. */
export function DataRequestHistory({ events }: { events: DataRequestEvent[] }) {
  return (
    <ol className="grid gap-3 text-sm">
      {events.map((event, index) => (
        <li key={index} className="border-l-2 border-primary/40 pl-3">
          <p className="font-medium">{ACTION_LABELS[event.action]}</p>
          <p className="text-muted-foreground">
            {formatDateTimeFr(event.createdAt)} · par <span className="wrap-anywhere">{event.actorEmail}</span>
          </p>
          {event.counts ? <p className="mt-1">{countsText(event.counts)}</p> : null}
        </li>
      ))}
    </ol>
  );
}
