import type { CurrencyCode } from "~/db/schema";
import { currenciesWithRevenue, revenueOf } from "~/features/admin/revenue.server";
import type { Revenue } from "~/features/admin/revenue";
import { periodBuckets } from "./statistics-buckets";
import type { StatisticsPeriod } from "./statistics-period";
import type { PeriodFigures } from "./statistics.server";

// Fast tracks, fees, refunds and net per currency over a period (ADR 031), from the daily figures
// the period's statement read (`periodFigures`): a fast track on its order's day, as the rest of the
// statistics; a fee on the day it was paid; a refund on the day it was asked of the gateway.

export interface CurrencyRevenueStatistics {
  currency: CurrencyCode;
  totals: Revenue;
  /** Every bucket of the period, in order, those without money at zero. */
  buckets: (Revenue & { start: string })[];
}

/** One entry per currency with any figure in the period, in the usual currency order. */
export function revenueStatistics(period: StatisticsPeriod, figures: PeriodFigures[]): CurrencyRevenueStatistics[] {
  const buckets = periodBuckets(period);
  return currenciesWithRevenue(figures).map((currency) => {
    const ofCurrency = figures.filter((row) => row.currency === currency);
    return {
      currency,
      totals: revenueOf(ofCurrency.find((row) => row.bucket === null)),
      buckets: buckets.map((start) => ({ start, ...revenueOf(ofCurrency.find((row) => row.bucket === start)) })),
    };
  });
}
