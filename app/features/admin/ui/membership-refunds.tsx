import type { MembershipDetails } from "~/features/admin/membership-details.server";
import { formatAmountFr, formatDateFr, formatDateTimeFr } from "~/lib/format-fr";

/** The refunds of the membership's invoices, newest first: how much, why, by whom and when. */
export function MembershipRefunds({
  refunds,
  invoices,
}: {
  refunds: MembershipDetails["refunds"];
  invoices: MembershipDetails["invoices"];
}) {
  if (refunds.length === 0) return <p className="text-sm text-muted-foreground">Aucun remboursement.</p>;
  const periods = new Map(
    invoices.map((invoice) => [
      invoice.id,
      `${formatDateFr(invoice.periodStart)} → ${formatDateFr(invoice.periodEnd)}`,
    ]),
  );
  return (
    <ul className="grid gap-3 text-sm" aria-label="Remboursements, du plus récent au plus ancien">
      {refunds.map((refund) => (
        <li key={refund.id} className="grid gap-1 rounded-lg border p-3">
          <p className="flex flex-wrap justify-between gap-2 font-medium">
            <span className="tabular-nums">{formatAmountFr(refund.amount, refund.currency)}</span>
            <span className="text-muted-foreground tabular-nums">
              Facture {refund.invoiceId ? periods.get(refund.invoiceId) : "—"}
            </span>
          </p>
          <p className="whitespace-pre-line wrap-anywhere">{refund.reason}</p>
          <p className="text-muted-foreground">
            {formatDateTimeFr(refund.createdAt)} · par <span className="wrap-anywhere">{refund.actorLabel}</span>
          </p>
        </li>
      ))}
    </ul>
  );
}
