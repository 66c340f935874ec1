import { Link } from "react-router";
import {
  Activity,
  ArrowLeft,
  BarChart3,
  Euro,
  Inbox,
  Mail,
  Repeat,
  Server,
  ShieldCheck,
  ShoppingCart,
  Undo2,
  Users,
} from "lucide-react";
import type { Route } from "./+types/admin";
import { PageHeading } from "~/components/layout/page-heading";
import { useToastOnArrival } from "~/components/layout/toast-notice";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { database } from "~/db/client.server";
import { formatAmountFr, formatCountFr } from "~/lib/format-fr";
import { KeysetPagination } from "~/features/admin/ui/keyset-pagination";
import { pagePositionFromSearch } from "~/features/admin/keyset.server";
import { recentOrders, type OrdersPage } from "~/features/admin/orders/orders-admin.server";
import { LOAD_FAILED, LoadFailedAlert } from "~/features/admin/ui/load-failed";
import { OrdersList } from "~/features/admin/orders/ui/orders-list";
import {
  dashboardTotals,
  membershipFigures,
  type DashboardTotals,
  type MembershipFigures,
} from "~/features/admin/dashboard/dashboard-totals.server";
import { MembershipCards } from "~/features/admin/dashboard/ui/membership-cards";
import { RevenueCard } from "~/features/admin/dashboard/ui/revenue-card";
import { revenueByCurrency } from "~/features/admin/revenue.server";
import type { CurrencyRevenue } from "~/features/admin/revenue";
import { requireAdmin } from "~/features/auth/guards.server";
import { checkHealth } from "~/platform/health/health.server";
import { layoutMeta, pageMeta } from "~/platform/seo/page-meta";
import { env } from "~/env.server";
import { gatewayLabelFr } from "~/features/payments/live-gateway.server";
import { logger } from "~/logger.server";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta({ title: "Tableau de bord" }),
  ...layoutMeta(matches),
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const health = await checkHealth();
  const payments = gatewayLabelFr(env());
  const position = pagePositionFromSearch(new URL(request.url).searchParams);
  try {
    const db = database().db;
    const stats: DashboardTotals = await dashboardTotals(db);
    const revenue: CurrencyRevenue[] = await revenueByCurrency(db);
    const members: MembershipFigures = await membershipFigures(db);
    const orders: OrdersPage = await recentOrders(db, position);
    return { healthy: health.status === "ok", payments, stats, revenue, members, orders, toast: null };
  } catch (error) {
    logger.error({ err: error }, "Erreur lors du chargement des données (admin dashboard)");
    return {
      healthy: health.status === "ok",
      payments,
      stats: null,
      revenue: null,
      members: null,
      orders: null,
      toast: LOAD_FAILED,
    };
  }
}

const UPCOMING_FEATURES = [
  "Notifications par e-mail pour les nouvelles commandes",
  "Réponse aux messages des clients depuis le back-office",
];

const QUICK_ACCESS = [
  { to: "/admin/clients", label: "Gestion des clients", icon: Users },
  { to: "/admin/orders", label: "Commandes", icon: ShoppingCart },
  { to: "/admin/memberships", label: "Abonnements", icon: Repeat },
  { to: "/admin/statistics", label: "Statistiques de ventes", icon: BarChart3 },
  { to: "/admin/messages", label: "Messages", icon: Inbox },
  { to: "/admin/withdrawals", label: "Rétractations", icon: Undo2 },
  { to: "/admin/data-requests", label: "Demandes RGPD", icon: ShieldCheck },
  { to: "/admin/emails", label: "E-mails", icon: Mail },
  { to: "/admin/system", label: "Système", icon: Server },
];

function StatCard({
  title,
  value,
  note,
  icon: Icon,
}: {
  title: string;
  value: string;
  note: string;
  icon: typeof Users;
}) {
  return (
    <Card className="gap-3">
      <CardHeader className="flex flex-row items-center justify-between">
        <CardTitle className="text-sm font-medium text-muted-foreground">{title}</CardTitle>
        <Icon className="size-5 text-primary" aria-hidden="true" />
      </CardHeader>
      <CardContent>
        <p className="text-2xl font-bold">{value}</p>
        <p className="mt-1 text-xs text-muted-foreground">{note}</p>
      </CardContent>
    </Card>
  );
}

export default function AdminPage({ loaderData }: Route.ComponentProps) {
  const { healthy, payments, stats, revenue, members, orders, toast } = loaderData;
  useToastOnArrival(toast);
  const missing = "—";
  return (
    <>
      <PageHeading title="Tableau de bord administrateur" lead="Clients, commandes, abonnements et état du système." />
      <div className="mx-auto grid max-w-7xl grid-cols-[minmax(0,1fr)] gap-8 px-4 pb-16 sm:px-6">
        {toast ? <LoadFailedAlert /> : null}

        <section aria-label="Indicateurs" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <StatCard
            title="Total clients"
            value={stats ? formatCountFr(stats.customers) : missing}
            note="Clients enregistrés"
            icon={Users}
          />
          <StatCard
            title="Commandes"
            value={stats ? formatCountFr(stats.orders) : missing}
            note="Toutes les commandes"
            icon={ShoppingCart}
          />
          <StatCard
            title="Chiffre d'affaires"
            value={stats ? formatAmountFr(stats.revenue, "EUR") : missing}
            note="Commandes payées ou terminées"
            icon={Euro}
          />
          <StatCard
            title="État du système"
            value={healthy ? "Opérationnel" : "Indisponible"}
            note={`Base de données · Paiements : ${payments}`}
            icon={Activity}
          />
        </section>

        <RevenueCard revenue={revenue} />

        <MembershipCards figures={members} />

        <div className="grid gap-4 lg:grid-cols-2">
          <Card>
            <CardHeader>
              <CardTitle>
                <h2>Accès rapide</h2>
              </CardTitle>
              <CardDescription>Les outils de gestion du site.</CardDescription>
            </CardHeader>
            <CardContent className="grid gap-2 sm:grid-cols-2">
              {QUICK_ACCESS.map(({ to, label, icon: Icon }) => (
                <Button key={to} asChild variant="outline">
                  <Link to={to}>
                    <Icon aria-hidden="true" />
                    {label}
                  </Link>
                </Button>
              ))}
              <Button asChild>
                <Link to="/">
                  <ArrowLeft aria-hidden="true" />
                  Retour au site
                </Link>
              </Button>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>
                <h2>Fonctionnalités à venir</h2>
              </CardTitle>
            </CardHeader>
            <CardContent>
              <ul className="grid list-disc gap-2 pl-5 text-sm">
                {UPCOMING_FEATURES.map((feature) => (
                  <li key={feature}>{feature}</li>
                ))}
              </ul>
            </CardContent>
          </Card>
        </div>

        <Card>
          <CardHeader>
            <CardTitle>
              <h2>Commandes récentes</h2>
            </CardTitle>
          </CardHeader>
          <CardContent>
            {orders ? (
              <>
                {orders.rows.length ? (
                  <OrdersList orders={orders.rows} label="Commandes récentes" />
                ) : (
                  <p className="text-sm text-muted-foreground">Aucune commande pour le moment.</p>
                )}
                <KeysetPagination page={orders} label="Pagination des commandes" />
              </>
            ) : (
              <p className="text-sm text-muted-foreground">Les commandes n'ont pas pu être chargées.</p>
            )}
          </CardContent>
        </Card>
      </div>
    </>
  );
}
