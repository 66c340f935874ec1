import type { SubmissionResult } from "@conform-to/react";
import { StatusBadge, type StatusTone } from "~/components/ui/status-badge";
import type { InvoiceStatus } from "~/db/schema";
import { REFUND_INVOICE_FIELD } from "~/features/admin/memberships/membership-actions";
import type { MembershipDetails } from "~/features/admin/memberships/membership-details.server";
import { invoiceStatusLabel } from "~/features/memberships/membership-status";
import type { FullRefundStep } from "~/features/payments/refund";
import { RefundForm } from "~/features/payments/ui/refund-form";
import { formatAmountFr, formatCountFr, formatDateFr, formatDateTimeFr } from "~/lib/format-fr";

const TONES: Record<InvoiceStatus, StatusTone> = {
  open: "pending",
  paid: "good",
  refunded: "neutral",
  uncollectible: "bad",
  void: "neutral",
};

type Invoice = MembershipDetails["invoices"][number];

function InvoiceFacts({ invoice }: { invoice: Invoice }) {
  const facts: [string, string][] = [
    ["Tentatives", formatCountFr(invoice.attempts)],
    ["Payée le", invoice.paidAt ? formatDateTimeFr(invoice.paidAt) : "—"],
    ["Remboursé", formatAmountFr(invoice.refunded, invoice.currency)],
  ];
  return (
    <dl className="grid grid-cols-3 gap-2 text-muted-foreground">
      {facts.map(([label, value]) => (
        <div key={label}>
          <dt className="text-xs">{label}</dt>
          <dd className="font-medium text-foreground tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The membership's quarterly invoices, newest period first, each with a refund form while some of
 * what was charged can still be given back. `refund` is the action's answer to a refused refund,
 * shown on the form it came from.
 */
export function MembershipInvoices({
  invoices,
  refundKeys,
  action,
  refund,
}: {
  invoices: Invoice[];
  /** A fresh idempotency key for each refundable invoice. */
  refundKeys: Record<string, string>;
  action: string;
  refund?: { invoiceId: string; result: SubmissionResult<string[]>; confirmFull?: FullRefundStep };
}) {
  if (invoices.length === 0) {
    return <p className="text-sm text-muted-foreground">Aucune facture : rien n'a encore été facturé.</p>;
  }
  return (
    <ul className="grid gap-3 text-sm" aria-label="Factures, de la plus récente à la plus ancienne">
      {invoices.map((invoice) => {
        const idempotencyKey = refundKeys[invoice.id];
        const answered = refund?.invoiceId === invoice.id ? refund : undefined;
        const lastResult = answered?.result;
        return (
          <li key={invoice.id} className="grid gap-3 rounded-lg border p-3">
            <p className="flex flex-wrap items-center justify-between gap-2">
              <span className="font-medium tabular-nums">
                {formatDateFr(invoice.periodStart)} → {formatDateFr(invoice.periodEnd)}
              </span>
              <span className="flex items-center gap-2">
                <span className="font-medium tabular-nums">{formatAmountFr(invoice.amount, invoice.currency)}</span>
                <StatusBadge tone={TONES[invoice.status]}>{invoiceStatusLabel(invoice.status)}</StatusBadge>
              </span>
            </p>
            <InvoiceFacts invoice={invoice} />
            {idempotencyKey ? (
              // Keyed on the key, fresh after each refund: the form then starts closed and empty again.
              <details
                key={idempotencyKey}
                open={Boolean(lastResult)}
                className="rounded-md border bg-muted/30 px-3 py-2"
              >
                <summary className="cursor-pointer font-medium text-link">
                  Rembourser ({formatAmountFr(invoice.refundable, invoice.currency)} au plus)
                </summary>
                <div className="pt-3">
                  <RefundForm
                    id={`refund-${invoice.id}`}
                    action={action}
                    refundable={invoice.refundable}
                    currency={invoice.currency}
                    idempotencyKey={idempotencyKey}
                    lastResult={lastResult}
                    hidden={{ name: REFUND_INVOICE_FIELD, value: invoice.id }}
                    confirmFull={answered?.confirmFull}
                  />
                </div>
              </details>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
