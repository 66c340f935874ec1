import { formatAmountFr } from "~/lib/format-fr";
import { REVENUE_FIGURES, type CurrencyRevenue, type Revenue } from "~/features/admin/revenue";

/** A figure as the back office shows it: refunds with their minus sign, since they are taken off. */
export function revenueAmountFr(revenue: Revenue, key: keyof Revenue, currency: CurrencyRevenue["currency"]) {
  return formatAmountFr(key === "refunds" ? -revenue[key] : revenue[key], currency);
}

/** One currency's fast tracks, fees, refunds and net, one line each, the net last and bold. */
export function RevenueLines({ revenue }: { revenue: CurrencyRevenue }) {
  return (
    <dl className="grid gap-1 text-sm" data-testid={`revenue-${revenue.currency}`}>
      {REVENUE_FIGURES.map(({ key, label }) => (
        <div
          key={key}
          className={
            key === "net"
              ? "mt-1 flex items-baseline justify-between gap-4 border-t pt-2 font-semibold"
              : "flex items-baseline justify-between gap-4"
          }
        >
          <dt className={key === "net" ? undefined : "text-muted-foreground"}>{label}</dt>
          <dd className={key === "net" ? "text-lg whitespace-nowrap tabular-nums" : "whitespace-nowrap tabular-nums"}>
            {revenueAmountFr(revenue, key, revenue.currency)}
          </dd>
        </div>
      ))}
    </dl>
  );
}
