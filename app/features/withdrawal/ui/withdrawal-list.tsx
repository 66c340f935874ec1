import { Link } from "react-router";
import { StatusBadge } from "~/components/ui/status-badge";
import { formatDateTimeFr } from "~/lib/format-fr";
import { WITHDRAWAL_OUTCOME_LABELS } from "../withdrawal-outcome";
import type { WithdrawalRow } from "../withdrawals-admin.server";

const linkClass = "text-link underline-offset-4 hover:underline";

/**
 * Withdrawals as the back office lists them (French): when each was received, what it did, and the
 * details as the consumer typed them. With `links`, each matched one links to its order.
 */
export function WithdrawalList({
  withdrawals,
  links = false,
}: {
  withdrawals: (WithdrawalRow & { orderNumber?: string | null })[];
  links?: boolean;
}) {
  if (withdrawals.length === 0) return <p className="text-sm text-muted-foreground">Aucune rétractation.</p>;
  return (
    <ul className="grid gap-3 text-sm">
      {withdrawals.map((withdrawal) => {
        const outcome = WITHDRAWAL_OUTCOME_LABELS[withdrawal.outcome];
        return (
          <li key={withdrawal.id} className="grid gap-1 rounded-lg border p-3">
            <p className="flex flex-wrap items-center justify-between gap-2 font-medium">
              <span>Reçue le {formatDateTimeFr(withdrawal.receivedAt)}</span>
              <StatusBadge tone={outcome.tone}>{outcome.label}</StatusBadge>
            </p>
            <p className="wrap-anywhere">
              Nom indiqué : {withdrawal.name} · {withdrawal.email}
            </p>
            <p className="text-muted-foreground">
              Numéro indiqué : <span className="font-mono text-xs wrap-anywhere">{withdrawal.contractNumber}</span>
              {links && withdrawal.orderId ? (
                <>
                  {" · "}
                  <Link to={`/admin/orders/${withdrawal.orderId}`} className={linkClass}>
                    Commande {withdrawal.orderNumber ?? ""}
                  </Link>
                </>
              ) : null}
            </p>
          </li>
        );
      })}
    </ul>
  );
}
