import { formatAmountFr, formatDateTimeFr } from "~/lib/format-fr";
import type { BackOfficeOrder } from "~/features/admin/orders/order-details.server";

const OUTCOME_LABELS: Record<string, string> = { succeeded: "Accepté", declined: "Refusé" };

/** Each payment attempt: the card (brand and last four digits only), the provider's reference and the outcome. */
export function OrderPayments({ payments }: { payments: BackOfficeOrder["payments"] }) {
  if (payments.length === 0) return <p className="text-sm text-muted-foreground">Aucun paiement.</p>;
  return (
    <ul className="grid gap-3 text-sm">
      {payments.map((payment) => (
        <li key={payment.id} className="grid gap-1 rounded-lg border p-3">
          <p className="flex flex-wrap justify-between gap-2 font-medium">
            <span>
              {payment.brand} •••• {payment.last4}
            </span>
            <span className="tabular-nums">{formatAmountFr(payment.amount, payment.currency)}</span>
          </p>
          <p className="text-muted-foreground">
            {OUTCOME_LABELS[payment.outcome] ?? payment.outcome} · {formatDateTimeFr(payment.createdAt)}
          </p>
          <p className="text-muted-foreground">
            {payment.provider} · réf. <span className="font-mono text-xs wrap-anywhere">{payment.providerRef}</span>
          </p>
        </li>
      ))}
    </ul>
  );
}
