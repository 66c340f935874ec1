import type * as React from "react";
import type { CurrencyCode } from "~/db/schema";
import { BarChart, type ChartSeries } from "./bar-chart";
import { formatAmountFr, formatCountFr } from "~/lib/format-fr";
import { bucketLabel } from "~/features/admin/statistics/statistics-buckets";
import { GROUPED_BY, type Granularity } from "~/features/admin/statistics/statistics-period";
import type {
  AirportFigures,
  CurrencyFigures,
  OrderCounts,
  SalesStatistics,
} from "~/features/admin/statistics/statistics.server";
import type { MembershipCounts, MembershipStatistics } from "~/features/admin/statistics/statistics-memberships.server";
import type { PlanStatistics } from "~/features/admin/statistics/statistics-plans.server";
import type { CurrencyRevenueStatistics } from "~/features/admin/statistics/statistics-revenue.server";
import { REVENUE_FIGURES } from "~/features/admin/revenue";
import { RevenueLines, revenueAmountFr } from "~/features/admin/ui/revenue-lines";
import { membershipPlanName } from "~/features/memberships/membership-status";
import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-terms";

const CURRENCY_NAMES_FR: Record<CurrencyCode, string> = {
  USD: "dollars américains (USD)",
  EUR: "euros (EUR)",
  GBP: "livres sterling (GBP)",
};

/** The order counts' names, in the tables' and the charts' order, with the chart colours. */
const COUNTS: {
  key: keyof OrderCounts & ("paid" | "unpaid" | "withdrawn");
  label: string;
  fill: string;
  swatch: string;
}[] = [
  { key: "paid", label: "Payées", fill: "fill-green-700", swatch: "bg-green-700" },
  { key: "unpaid", label: "Non payées", fill: "fill-amber-600", swatch: "bg-amber-600" },
  { key: "withdrawn", label: "Annulées ou remboursées", fill: "fill-slate-500", swatch: "bg-slate-500" },
];

/** The period's totals: order counts over every currency, revenue per currency. */
export function StatisticsSummary({ statistics }: { statistics: SalesStatistics }) {
  const { totals } = statistics;
  const figures = [
    { label: "Commandes", value: formatCountFr(totals.orders), note: "Toutes devises" },
    ...COUNTS.map(({ key, label }) => ({
      label,
      value: formatCountFr(totals[key]),
      note: key === "paid" ? "Payées ou terminées" : "Toutes devises",
    })),
    ...statistics.currencies.map(({ currency, totals: { revenue } }) => ({
      label: `Chiffre d'affaires ${currency}`,
      value: formatAmountFr(revenue, currency),
      note: "Commandes payées ou terminées",
    })),
  ];
  return <FigureTiles figures={figures} />;
}

/** A period's headline figures, as tiles: a label, the figure, and what it counts. */
function FigureTiles({ figures }: { figures: { label: string; value: string; note: string }[] }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      {figures.map(({ label, value, note }) => (
        <div key={label} className="grid gap-1 rounded-xl border bg-card p-5 shadow-sm">
          <dt className="text-sm font-medium text-muted-foreground">{label}</dt>
          <dd className="text-2xl font-bold tabular-nums">{value}</dd>
          <dd className="text-xs text-muted-foreground">{note}</dd>
        </div>
      ))}
    </dl>
  );
}

/** One currency's revenue and orders per bucket: two charts, then the same figures as a table. */
export function CurrencyFigures({
  figures,
  granularity,
  periodText,
}: {
  figures: CurrencyFigures;
  granularity: Granularity;
  periodText: string;
}) {
  const { currency, buckets, totals } = figures;
  const labels = buckets.map((bucket) => bucketLabel(bucket.start, granularity));
  const amount = (value: number) => formatAmountFr(value, currency);
  const per = GROUPED_BY[granularity];
  const busiest = buckets.reduce((best, bucket) => (bucket.revenue > best.revenue ? bucket : best), buckets[0]!);
  const revenueSeries: ChartSeries[] = [
    { label: "Chiffre d'affaires", fill: "fill-primary", swatch: "bg-primary", values: buckets.map((b) => b.revenue) },
  ];
  const orderSeries: ChartSeries[] = COUNTS.map(({ key, label, fill, swatch }) => ({
    label,
    fill,
    swatch,
    values: buckets.map((bucket) => bucket[key]),
  }));
  return (
    <div className="grid gap-6">
      <div className="grid gap-6 lg:grid-cols-2">
        <BarChart
          id={`revenue-${currency}`}
          title={`Chiffre d'affaires ${per} en ${currency}`}
          description={`${periodText} : ${amount(totals.revenue)} au total${
            busiest.revenue > 0
              ? `, au plus ${amount(busiest.revenue)} (${bucketLabel(busiest.start, granularity)})`
              : ""
          }. Le détail est dans le tableau qui suit.`}
          labels={labels}
          series={revenueSeries}
          formatValue={amount}
        />
        <BarChart
          id={`orders-${currency}`}
          title={`Commandes ${per} en ${currency}`}
          description={`${periodText} : ${formatCountFr(totals.orders)} commandes, dont ${COUNTS.map(
            ({ key, label }) => `${formatCountFr(totals[key])} ${label.toLowerCase()}`,
          ).join(", ")}. Le détail est dans le tableau qui suit.`}
          labels={labels}
          series={orderSeries}
          formatValue={formatCountFr}
        />
      </div>
      <FiguresTable figures={figures} labels={labels} caption={`Ventes en ${CURRENCY_NAMES_FR[currency]} ${per}`} />
    </div>
  );
}

const numeric = "py-2 pr-4 text-right whitespace-nowrap tabular-nums last:pr-0";

function FiguresTable({ figures, labels, caption }: { figures: CurrencyFigures; labels: string[]; caption: string }) {
  const { currency, buckets, totals } = figures;
  const cells = (row: OrderCounts & { revenue: number }) => (
    <>
      <td className={numeric}>{formatCountFr(row.orders)}</td>
      {COUNTS.map(({ key }) => (
        <td key={key} className={numeric}>
          {formatCountFr(row[key])}
        </td>
      ))}
      <td className={numeric}>{formatAmountFr(row.revenue, currency)}</td>
    </>
  );
  return (
    <PeriodTable
      caption={caption}
      columns={["Commandes", ...COUNTS.map(({ label }) => label), "Chiffre d'affaires"]}
      labels={labels}
      buckets={buckets}
      totals={totals}
      cells={cells}
    />
  );
}

/** Figures per period, a row each under its label, then their total. */
function PeriodTable<Row>({
  caption,
  columns,
  labels,
  buckets,
  totals,
  cells,
}: {
  caption: string;
  columns: string[];
  labels: string[];
  buckets: (Row & { start: string })[];
  totals: Row;
  cells: (row: Row) => React.ReactNode;
}) {
  return (
    <FiguresTableFrame caption={caption} rowHeading="Période" columns={columns}>
      <tbody>
        {buckets.map((bucket, index) => (
          <tr key={bucket.start} className="border-b">
            <th scope="row" className="py-2 pr-4 text-left font-normal whitespace-nowrap">
              {labels[index]}
            </th>
            {cells(bucket)}
          </tr>
        ))}
      </tbody>
      <tfoot className="font-semibold">
        <tr>
          <th scope="row" className="py-2 pr-4 text-left">
            Total
          </th>
          {cells(totals)}
        </tr>
      </tfoot>
    </FiguresTableFrame>
  );
}

/**
 * The period's fast tracks, fees, refunds and net per currency: the totals side by side, then each
 * currency's figures per bucket. Currencies are never added together.
 */
export function RevenueFigures({
  revenue,
  granularity,
}: {
  revenue: CurrencyRevenueStatistics[];
  granularity: Granularity;
}) {
  if (revenue.length === 0) return <p className="text-muted-foreground">Aucune recette sur cette période.</p>;
  const per = GROUPED_BY[granularity];
  return (
    <div className="grid gap-6">
      <p className="text-sm text-muted-foreground">
        {REVENUE_FIGURES.map(({ label, note }) => `${label} : ${note}.`).join(" ")} Un fast-track compte au jour de sa
        commande, une cotisation au jour de son paiement, un remboursement au jour où il a été demandé.
      </p>
      <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {revenue.map(({ currency, totals }) => (
          <section key={currency} aria-label={`Recettes en ${currency} sur la période`} className="grid gap-2">
            <h3 className="font-medium">{currency}</h3>
            <RevenueLines revenue={{ currency, ...totals }} />
          </section>
        ))}
      </div>
      {revenue.map(({ currency, buckets, totals }) => (
        <PeriodTable
          key={currency}
          caption={`Recettes en ${CURRENCY_NAMES_FR[currency]} ${per}`}
          columns={REVENUE_FIGURES.map(({ label }) => label)}
          labels={buckets.map((bucket) => bucketLabel(bucket.start, granularity))}
          buckets={buckets}
          totals={totals}
          cells={(row) =>
            REVENUE_FIGURES.map(({ key }) => (
              <td key={key} className={numeric}>
                {revenueAmountFr(row, key, currency)}
              </td>
            ))
          }
        />
      ))}
    </div>
  );
}

/** The membership changes' names, in the tables' order, with what each counts and its chart colour. */
const MEMBERSHIP_COUNTS: { key: keyof MembershipCounts; label: string; note: string; fill: string; swatch: string }[] =
  [
    {
      key: "trialsStarted",
      label: "Essais commencés",
      note: `Essais gratuits de ${MEMBERSHIP_TERMS.trialDays} jours`,
      fill: "fill-primary",
      swatch: "bg-primary",
    },
    {
      key: "converted",
      label: "Conversions",
      note: "Première cotisation payée à la fin de l'essai",
      fill: "fill-green-700",
      swatch: "bg-green-700",
    },
    {
      key: "cancelled",
      label: "Résiliations",
      note: "À la fin de la période payée, ou immédiates",
      fill: "fill-slate-500",
      swatch: "bg-slate-500",
    },
    {
      key: "endedUnpaid",
      label: "Fins pour impayé",
      note: `${MEMBERSHIP_TERMS.reminderGraceDays} jours après le rappel de paiement`,
      fill: "fill-amber-600",
      swatch: "bg-amber-600",
    },
  ];

const countsOf = (keys: (keyof MembershipCounts)[]) => MEMBERSHIP_COUNTS.filter(({ key }) => keys.includes(key));

/** The memberships of the period: its totals, the trials, conversions and endings per bucket as charts, then a table. */
export function MembershipFigures({
  statistics,
  granularity,
  periodText,
}: {
  statistics: MembershipStatistics;
  granularity: Granularity;
  periodText: string;
}) {
  const { buckets, totals } = statistics;
  if (MEMBERSHIP_COUNTS.every(({ key }) => totals[key] === 0)) {
    return <p className="text-muted-foreground">Aucun abonnement commencé, converti ou terminé sur cette période.</p>;
  }
  const labels = buckets.map((bucket) => bucketLabel(bucket.start, granularity));
  const per = GROUPED_BY[granularity];
  const charts = [
    { id: "trials", title: `Essais commencés ${per}`, counts: countsOf(["trialsStarted"]) },
    { id: "conversions", title: `Conversions ${per}`, counts: countsOf(["converted"]) },
    { id: "endings", title: `Résiliations et fins pour impayé ${per}`, counts: countsOf(["cancelled", "endedUnpaid"]) },
  ];
  return (
    <div className="grid gap-6">
      <FigureTiles
        figures={MEMBERSHIP_COUNTS.map(({ key, label, note }) => ({ label, value: formatCountFr(totals[key]), note }))}
      />
      <div className="grid gap-6 lg:grid-cols-3">
        {charts.map(({ id, title, counts }) => (
          <BarChart
            key={id}
            id={`memberships-${id}`}
            title={title}
            description={`${periodText} : ${counts
              .map(({ key, label }) => `${formatCountFr(totals[key])} ${label.toLowerCase()}`)
              .join(", ")}. Le détail est dans le tableau qui suit.`}
            labels={labels}
            series={counts.map(({ key, label, fill, swatch }) => ({
              label,
              fill,
              swatch,
              values: buckets.map((bucket) => bucket[key]),
            }))}
            formatValue={formatCountFr}
          />
        ))}
      </div>
      <PeriodTable
        caption={`Abonnements ${per}`}
        columns={MEMBERSHIP_COUNTS.map(({ label }) => label)}
        labels={labels}
        buckets={buckets}
        totals={totals}
        cells={membershipCells}
      />
    </div>
  );
}

function membershipCells(counts: MembershipCounts) {
  return MEMBERSHIP_COUNTS.map(({ key }) => (
    <td key={key} className={numeric}>
      {formatCountFr(counts[key])}
    </td>
  ));
}

/** The airports with the most paid orders, and what they brought in each currency. */
export function AirportsTable({ airports }: { airports: AirportFigures[] }) {
  if (airports.length === 0) {
    return <p className="text-sm text-muted-foreground">Aucune commande avec un aéroport sur cette période.</p>;
  }
  return (
    <FiguresTableFrame
      caption="Aéroports classés par commandes payées"
      rowHeading="Aéroport"
      columns={["Commandes", "Payées", "Chiffre d'affaires"]}
    >
      <tbody>
        {airports.map((airport) => (
          <tr key={airport.airport} className="border-b last:border-0">
            <th scope="row" className="py-2 pr-4 text-left font-normal">
              {airport.airport}
            </th>
            <td className={numeric}>{formatCountFr(airport.orders)}</td>
            <td className={numeric}>{formatCountFr(airport.paid)}</td>
            <td className={numeric}>{airportRevenue(airport)}</td>
          </tr>
        ))}
      </tbody>
    </FiguresTableFrame>
  );
}

function airportRevenue({ revenue }: AirportFigures): string {
  const earned = revenue.filter(({ amount }) => amount > 0);
  return earned.length ? earned.map(({ currency, amount }) => formatAmountFr(amount, currency)).join(" · ") : "—";
}

/** A table of figures, scrolling sideways on a narrow screen: its caption, a row heading's column, then numbers. */
function FiguresTableFrame({
  caption,
  rowHeading,
  columns,
  children,
}: {
  caption: string;
  rowHeading: string;
  columns: string[];
  children: React.ReactNode;
}) {
  return (
    <div className="overflow-x-auto" role="region" aria-label={caption} tabIndex={0}>
      <table className="w-full min-w-[36rem] text-left text-sm">
        <caption className="pb-2 text-left font-medium">{caption}</caption>
        <thead className="border-b text-muted-foreground">
          <tr>
            <th scope="col" className="py-2 pr-4 font-medium">
              {rowHeading}
            </th>
            {columns.map((label) => (
              <th key={label} scope="col" className="py-2 pr-4 text-right font-medium last:pr-0">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        {children}
      </table>
    </div>
  );
}

/** Each plan's trials, conversions and moves to it over the period, then the free fast-track accesses used per bucket. */
export function PlanFigures({ statistics, granularity }: { statistics: PlanStatistics; granularity: Granularity }) {
  const { plans, freeAccesses } = statistics;
  const labels = freeAccesses.buckets.map((bucket) => bucketLabel(bucket.start, granularity));
  return (
    <div className="grid gap-6">
      <FiguresTableFrame
        caption="Essais, conversions et changements de formule"
        rowHeading="Formule"
        columns={["Essais commencés", "Conversions", "Passages vers la formule"]}
      >
        <tbody>
          {plans.map((row) => (
            <tr key={row.plan} className="border-b last:border-0">
              <th scope="row" className="py-2 pr-4 text-left font-normal">
                {membershipPlanName(row.plan)}
              </th>
              <td className={numeric}>{formatCountFr(row.trialsStarted)}</td>
              <td className={numeric}>{formatCountFr(row.converted)}</td>
              <td className={numeric}>{formatCountFr(row.changedTo)}</td>
            </tr>
          ))}
        </tbody>
      </FiguresTableFrame>
      {freeAccesses.total === 0 ? (
        <p className="text-sm text-muted-foreground">Aucun accès fast-track gratuit utilisé sur cette période.</p>
      ) : (
        <PeriodTable
          caption={`Accès fast-track gratuits utilisés ${GROUPED_BY[granularity]} (réservations payées des membres)`}
          columns={["Accès gratuits"]}
          labels={labels}
          buckets={freeAccesses.buckets}
          totals={{ used: freeAccesses.total }}
          cells={({ used }) => <td className={numeric}>{formatCountFr(used)}</td>}
        />
      )}
    </div>
  );
}
