import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { Route } from "./+types/admin.statistics";
import { SectionCard } from "~/components/layout/section-card";
import { useToastOnArrival } from "~/components/layout/toast-notice";
import { database } from "~/db/client.server";
import {
  defaultPeriod,
  GROUPED_BY,
  statisticsPeriodSchema,
  type Granularity,
} from "~/features/admin/statistics/statistics-period";
import { LOAD_FAILED, LoadFailedAlert } from "~/features/admin/ui/load-failed";
import { StatisticsForm } from "~/features/admin/statistics/ui/statistics-form";
import {
  AirportsTable,
  CurrencyFigures,
  MembershipFigures,
  PlanFigures,
  RevenueFigures,
  StatisticsSummary,
} from "~/features/admin/statistics/ui/statistics-view";
import {
  periodFigures,
  salesStatistics,
  topAirports,
  type SalesStatistics,
} from "~/features/admin/statistics/statistics.server";
import {
  membershipStatistics,
  type MembershipStatistics,
} from "~/features/admin/statistics/statistics-memberships.server";
import { freeAccessesUsed, planCounts, type PlanStatistics } from "~/features/admin/statistics/statistics-plans.server";
import {
  revenueStatistics,
  type CurrencyRevenueStatistics,
} from "~/features/admin/statistics/statistics-revenue.server";
import { requireAdmin } from "~/features/auth/guards.server";
import { AdminPage } from "~/features/admin/ui/admin-page";
import { layoutMeta, pageMeta } from "~/platform/seo/page-meta";
import { companyDay } from "~/lib/company-time";
import { formatDayFr } from "~/lib/format-fr";
import { logger } from "~/logger.server";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta({ title: "Statistiques de ventes" }),
  ...layoutMeta(matches),
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const today = companyDay(new Date());
  const submission = parseWithZod(new URL(request.url).searchParams, { schema: statisticsPeriodSchema(today) });
  if (submission.status !== "success") {
    const refused = {
      today,
      period: defaultPeriod(today),
      result: submission.reply(),
      statistics: null,
      revenue: null,
      memberships: null,
      plans: null,
      toast: null,
    };
    return data(refused, { status: 400 });
  }
  const period = submission.value;
  try {
    const db = database().db;
    // Four statements side by side, each over the period's daily figures; the first gives the
    // orders', the money's and the free accesses' figures.
    const [figures, airports, memberships, counts] = await Promise.all([
      periodFigures(db, period),
      topAirports(db, period),
      membershipStatistics(db, period),
      planCounts(db, period),
    ]);
    const statistics: SalesStatistics = salesStatistics(period, figures, airports);
    const revenue: CurrencyRevenueStatistics[] = revenueStatistics(period, figures);
    const plans: PlanStatistics = { plans: counts, freeAccesses: freeAccessesUsed(period, figures) };
    return { today, period, result: null, statistics, revenue, memberships, plans, toast: null };
  } catch (error) {
    logger.error({ err: error }, "Erreur lors du chargement des données (statistiques)");
    return {
      today,
      period,
      result: null,
      statistics: null,
      revenue: null,
      memberships: null,
      plans: null,
      toast: LOAD_FAILED,
    };
  }
}

export default function AdminStatisticsPage({ loaderData }: Route.ComponentProps) {
  const { today, period, result, statistics, revenue, memberships, plans, toast } = loaderData;
  useToastOnArrival(toast);
  const periodText = `Du ${formatDayFr(period.from)} au ${formatDayFr(period.to)}`;
  return (
    <AdminPage
      title="Statistiques de ventes"
      lead="Chiffre d'affaires, commandes et abonnements par période, devise par devise : les montants de devises différentes ne sont jamais additionnés."
      wide
    >
      <SectionCard title="Période" subtitle="Jours à l'heure d'Amsterdam. Par défaut : les 30 derniers jours.">
        <StatisticsForm key={JSON.stringify(period)} period={period} lastResult={result} today={today} />
      </SectionCard>
      {result ? (
        <p className="text-sm text-muted-foreground">Corrigez la période pour afficher les statistiques.</p>
      ) : statistics && revenue && memberships && plans ? (
        <StatisticsReport
          statistics={statistics}
          revenue={revenue}
          memberships={memberships}
          plans={plans}
          periodText={periodText}
          granularity={period.granularity}
        />
      ) : (
        <LoadFailedAlert />
      )}
    </AdminPage>
  );
}

/** The period's orders and memberships: the headline figures first, then each currency's sales and the airports. */
function StatisticsReport({
  statistics,
  revenue,
  memberships,
  plans,
  periodText,
  granularity,
}: {
  statistics: SalesStatistics;
  revenue: CurrencyRevenueStatistics[];
  memberships: MembershipStatistics;
  plans: PlanStatistics;
  periodText: string;
  granularity: Granularity;
}) {
  const heading = `${periodText}, ${GROUPED_BY[granularity]}`;
  const periodCards = (
    <>
      <SectionCard title="Recettes" subtitle={heading}>
        <RevenueFigures revenue={revenue} granularity={granularity} />
      </SectionCard>
      <SectionCard title="Abonnements" subtitle={heading}>
        <MembershipFigures statistics={memberships} granularity={granularity} periodText={periodText} />
      </SectionCard>
      <SectionCard title="Formules" subtitle={periodText}>
        <PlanFigures statistics={plans} granularity={granularity} />
      </SectionCard>
    </>
  );
  if (statistics.totals.orders === 0) {
    return (
      <>
        <SectionCard title={heading}>
          <p className="text-muted-foreground">Aucune commande sur cette période.</p>
        </SectionCard>
        {periodCards}
      </>
    );
  }
  return (
    <>
      <section aria-labelledby="period-heading" className="grid gap-4">
        <h2 id="period-heading" className="text-xl font-semibold">
          {heading}
        </h2>
        <StatisticsSummary statistics={statistics} />
      </section>
      {periodCards}
      {statistics.currencies.map((figures) => (
        <SectionCard key={figures.currency} title={`Ventes en ${figures.currency}`}>
          <CurrencyFigures figures={figures} granularity={granularity} periodText={periodText} />
        </SectionCard>
      ))}
      <SectionCard title="Aéroports les plus vendus">
        <AirportsTable airports={statistics.airports} />
      </SectionCard>
    </>
  );
}
