import { Link } from "react-router";
import { Activity, ArrowLeft, ChevronLeft, ChevronRight, Euro, ShoppingCart, Users } from "lucide-react";
import type { Route } from "./+types/admin";
import { PageHeading } from "~/components/site/page-heading";
import { useToastOnArrival } from "~/components/site/toast-notice";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { database } from "~/db/client.server";
import { formatAmountFr, formatCountFr, formatDateTimeFr } from "~/features/admin/format";
import { isConfirmedStatus, orderStatusLabel } from "~/features/admin/order-status";
import { pagePositionFromSearch, recentOrders, type OrdersPage } from "~/features/admin/orders-admin.server";
import { dashboardStats, type DashboardStats } from "~/features/admin/stats.server";
import { requireAdmin } from "~/features/auth/guards.server";
import { checkHealth } from "~/features/health/health.server";
import { pageMeta } from "~/features/seo/page-meta";
import { cn } from "~/lib/class-names";
import type { Toast } from "~/lib/toast";
import { logger } from "~/logger.server";

export const handle = { lang: "fr" };

export const meta: Route.MetaFunction = () => [
  ...pageMeta({ title: "Tableau de bord" }),
  { name: "robots", content: "noindex" },
];

const LOAD_FAILED: Toast = { type: "error", title: "Erreur lors du chargement des données" };

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const health = await checkHealth();
  const position = pagePositionFromSearch(new URL(request.url).searchParams);
  try {
    const db = database().db;
    const stats: DashboardStats = await dashboardStats(db);
    const orders: OrdersPage = await recentOrders(db, position);
    return { healthy: health.status === "ok", stats, orders, toast: null };
  } catch (error) {
    logger.error({ err: error }, "Erreur lors du chargement des données (admin dashboard)");
    return { healthy: health.status === "ok", stats: null, orders: null, toast: LOAD_FAILED };
  }
}

const UPCOMING_FEATURES = [
  "Gestion détaillée des clients et de leurs abonnements",
  "Suivi et mise à jour du statut des commandes",
  "Statistiques de ventes et rapports par période",
  "Export des données au format CSV",
  "Notifications par e-mail pour les nouvelles commandes",
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

function StatusBadge({ status }: { status: string }) {
  return (
    <span
      className={cn(
        "inline-flex rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap",
        isConfirmedStatus(status) ? "bg-green-100 text-green-800" : "bg-yellow-100 text-yellow-900",
      )}
    >
      {orderStatusLabel(status)}
    </span>
  );
}

const ORDER_COLUMNS = [
  { label: "N° de commande" },
  { label: "Client" },
  { label: "Service" },
  { label: "Montant", numeric: true },
  { label: "Statut" },
  { label: "Date" },
];

function OrdersTable({ page }: { page: OrdersPage }) {
  if (page.rows.length === 0) {
    return <p className="text-sm text-muted-foreground">Aucune commande pour le moment.</p>;
  }
  return (
    <div className="overflow-x-auto" role="region" aria-label="Commandes récentes" tabIndex={0}>
      <table className="w-full min-w-[44rem] text-left text-sm">
        <thead className="border-b text-muted-foreground">
          <tr>
            {ORDER_COLUMNS.map(({ label, numeric }) => (
              <th key={label} scope="col" className={cn("py-2 pr-4 font-medium last:pr-0", numeric && "text-right")}>
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {page.rows.map((order) => (
            <tr key={order.id} className="border-b last:border-0">
              <td className="py-3 pr-4 font-mono text-xs">{order.orderNumber}</td>
              <td className="py-3 pr-4">{order.customerName ?? "—"}</td>
              <td className="py-3 pr-4">{order.serviceType}</td>
              <td className="py-3 pr-4 text-right whitespace-nowrap tabular-nums">
                {formatAmountFr(order.amount, order.currency)}
              </td>
              <td className="py-3 pr-4">
                <StatusBadge status={order.status} />
              </td>
              <td className="py-3 whitespace-nowrap tabular-nums">{formatDateTimeFr(order.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Pagination({ page }: { page: OrdersPage }) {
  if (!page.previous && !page.next) return null;
  return (
    <nav aria-label="Pagination des commandes" className="mt-4 flex justify-between gap-2">
      {page.previous ? (
        <Button asChild variant="outline" size="sm">
          <Link to={`?before=${encodeURIComponent(page.previous)}`} preventScrollReset>
            <ChevronLeft aria-hidden="true" />
            Précédent
          </Link>
        </Button>
      ) : (
        <span />
      )}
      {page.next ? (
        <Button asChild variant="outline" size="sm">
          <Link to={`?after=${encodeURIComponent(page.next)}`} preventScrollReset>
            Suivant
            <ChevronRight aria-hidden="true" />
          </Link>
        </Button>
      ) : null}
    </nav>
  );
}

export default function AdminPage({ loaderData }: Route.ComponentProps) {
  const { healthy, stats, orders, toast } = loaderData;
  useToastOnArrival(toast);
  const missing = "—";
  return (
    <>
      <PageHeading title="Tableau de bord administrateur" lead="Clients, commandes et état du système." />
      <div className="mx-auto grid max-w-7xl grid-cols-[minmax(0,1fr)] gap-8 px-4 pb-16 sm:px-6">
        {toast ? (
          <p role="alert" className="rounded-md border border-destructive/40 px-4 py-3 text-sm text-destructive">
            {toast.title}
          </p>
        ) : null}

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
            note="Base de données"
            icon={Activity}
          />
        </section>

        <div className="grid gap-4 lg:grid-cols-2">
          <Card>
            <CardHeader>
              <CardTitle>
                <h2>Accès rapide</h2>
              </CardTitle>
              <CardDescription>Les outils de gestion arrivent bientôt.</CardDescription>
            </CardHeader>
            <CardContent className="grid gap-2 sm:grid-cols-2">
              <Button variant="outline" disabled>
                Gestion des clients
              </Button>
              <Button variant="outline" disabled>
                Commandes
              </Button>
              <Button variant="outline" disabled>
                Statistiques de ventes
              </Button>
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
                <OrdersTable page={orders} />
                <Pagination page={orders} />
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
