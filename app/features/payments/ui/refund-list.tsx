import type { RefundRecord } from "~/features/payments/refunds.server";
import { formatAmountFr, formatDateTimeFr } from "~/lib/format-fr";

/** Refunds already made (French): how much, why, by whom and when, oldest first. */
export function RefundList({ refunds }: { refunds: RefundRecord[] }) {
  if (refunds.length === 0) return <p className="text-sm text-muted-foreground">Aucun remboursement.</p>;
  return (
    <ul className="grid gap-3 text-sm" aria-label="Remboursements effectués">
      {refunds.map((refund) => (
        <li key={refund.id} className="grid gap-1 rounded-lg border p-3">
          <p className="flex flex-wrap justify-between gap-2 font-medium">
            <span>Remboursement</span>
            <span className="tabular-nums">{formatAmountFr(refund.amount, refund.currency)}</span>
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
