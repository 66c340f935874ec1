import type { RefundRecord } from "~/features/payments/refunds.server";
import { formatAmountFr, formatDateTimeFr } from "~/lib/format-fr";

/**
 * Refunds already made (French), newest first: how much, why, by whom and when. `describe` names
 * what each one was for, when a page lists refunds of several things (a membership's invoices).
 */
export function RefundList<Refund extends RefundRecord>({
  refunds,
  describe,
}: {
  refunds: Refund[];
  describe?: (refund: Refund) => string;
}) {
  if (refunds.length === 0) return <p className="text-sm text-muted-foreground">Aucun remboursement.</p>;
  return (
    <ul className="grid gap-3 text-sm" aria-label="Remboursements, du plus récent au plus ancien">
      {refunds.map((refund) => (
        <li key={refund.id} className="grid gap-1 rounded-lg border p-3">
          <p className="flex flex-wrap justify-between gap-2 font-medium">
            <span className="tabular-nums">{formatAmountFr(refund.amount, refund.currency)}</span>
            {describe ? <span className="text-muted-foreground tabular-nums">{describe(refund)}</span> : null}
          </p>
          {refund.status === "pending" ? (
            <p className="font-medium text-amber-700">
              En cours : le prestataire de paiement n'a pas encore confirmé ce remboursement.
            </p>
          ) : null}
          <p className="whitespace-pre-line wrap-anywhere">{refund.reason}</p>
          <p className="text-muted-foreground">
            {formatDateTimeFr(refund.createdAt)} · par <span className="wrap-anywhere">{refund.actorLabel}</span>
          </p>
        </li>
      ))}
    </ul>
  );
}
