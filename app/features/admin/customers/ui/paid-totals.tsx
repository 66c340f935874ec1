import { formatAmountFr } from "~/lib/format-fr";
import type { PaidTotal } from "../customers-admin.server";

/** What a customer paid, one line per currency (never added together), or a dash when nothing. */
export function PaidTotals({ paid }: { paid: PaidTotal[] }) {
  if (paid.length === 0) return <span className="text-muted-foreground">—</span>;
  return (
    <span className="inline-grid justify-items-end">
      {paid.map(({ currency, amount }) => (
        <span key={currency} className="whitespace-nowrap tabular-nums">
          {formatAmountFr(amount, currency)}
        </span>
      ))}
    </span>
  );
}
