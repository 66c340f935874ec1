import { Link } from "react-router";
import { StatusBadge } from "~/components/ui/status-badge";
import { formatDateTimeFr } from "~/lib/format-fr";
import { CardsOrTable } from "../../ui/cards-or-table";
import { outboxStatus } from "../outbox-status";

export interface OutboxRow {
  id: string;
  to: string;
  subject: string;
  status: string;
  createdAt: Date;
}

const COLUMNS = [{ label: "Objet" }, { label: "Destinataire" }, { label: "Statut" }, { label: "Créé le" }];

const subject = (mail: OutboxRow) => (
  <Link
    to={`/admin/emails/${mail.id}`}
    className="font-medium text-link underline-offset-4 wrap-anywhere hover:underline"
  >
    {mail.subject}
  </Link>
);

const status = (mail: OutboxRow) => {
  const { label, tone } = outboxStatus(mail.status);
  return <StatusBadge tone={tone}>{label}</StatusBadge>;
};

/** The outbox's mails, newest first, each linked to its page: cards on a phone, a table wider. */
export function OutboxList({ mails }: { mails: OutboxRow[] }) {
  return (
    <CardsOrTable
      label="E-mails, du plus récent au plus ancien"
      columns={COLUMNS}
      tableClassName="min-w-[44rem]"
      cards={
        <>
          {mails.map((mail) => (
            <li key={mail.id} className="grid gap-1 rounded-lg border p-4 text-sm">
              <p className="flex flex-wrap items-center justify-between gap-2">
                {subject(mail)}
                {status(mail)}
              </p>
              <p className="text-muted-foreground wrap-anywhere">{mail.to}</p>
              <p className="text-muted-foreground tabular-nums">{formatDateTimeFr(mail.createdAt)}</p>
            </li>
          ))}
        </>
      }
      rows={
        <>
          {mails.map((mail) => (
            <tr key={mail.id} className="border-b align-top last:border-0">
              <td className="py-3 pr-4">{subject(mail)}</td>
              <td className="py-3 pr-4 wrap-anywhere">{mail.to}</td>
              <td className="py-3 pr-4">{status(mail)}</td>
              <td className="py-3 whitespace-nowrap tabular-nums">{formatDateTimeFr(mail.createdAt)}</td>
            </tr>
          ))}
        </>
      }
    />
  );
}
