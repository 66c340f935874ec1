import { ChevronLeft, ChevronRight } from "lucide-react";
import { data, Link } from "react-router";
import type { Route } from "./+types/admin.orders";
import { SectionCard } from "~/components/layout/section-card";
import { Button } from "~/components/ui/button";
import { database } from "~/db/client.server";
import { filterValues, filtersQuery, parseOrderFilters } from "~/features/admin/order-filters";
import { OrderFiltersForm } from "~/features/admin/ui/order-filters-form";
import { pagePositionFromSearch } from "~/features/admin/keyset.server";
import { ordersListPage, SearchTooBroadError, type OrdersPage } from "~/features/admin/orders-admin.server";
import { OrdersList } from "~/features/admin/ui/orders-list";
import { requireAdmin } from "~/features/auth/guards.server";
import { AdminPage } from "~/features/admin/ui/admin-page";
import { layoutMeta, pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta({ title: "Commandes" }), ...layoutMeta(matches)];

const SEARCH_TOO_BROAD =
  "Recherche trop large pour ces filtres : précisez le nom ou l'e-mail, ou élargissez le statut ou les dates.";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const values = filterValues(params);
  const parsed = parseOrderFilters(params);
  if (!parsed.success) return data({ values, errors: parsed.errors, page: null }, { status: 400 });
  try {
    const page = await ordersListPage(database().db, pagePositionFromSearch(params), parsed.filters);
    return { values, errors: {}, page };
  } catch (error) {
    if (!(error instanceof SearchTooBroadError)) throw error;
    return data({ values, errors: { q: SEARCH_TOO_BROAD }, page: null }, { status: 400 });
  }
}

function pageLink(query: string, cursor: "after" | "before", value: string) {
  const params = new URLSearchParams(query);
  params.set(cursor, value);
  return `?${params.toString()}`;
}

function Pagination({ page, query }: { page: OrdersPage; query: string }) {
  if (!page.previous && !page.next) return null;
  return (
    <nav aria-label="Pagination des commandes" className="mt-4 flex justify-between gap-2">
      {page.previous ? (
        <Button asChild variant="outline" size="sm">
          <Link to={pageLink(query, "before", page.previous)}>
            <ChevronLeft aria-hidden="true" />
            Plus récentes
          </Link>
        </Button>
      ) : (
        <span />
      )}
      {page.next ? (
        <Button asChild variant="outline" size="sm">
          <Link to={pageLink(query, "after", page.next)}>
            Plus anciennes
            <ChevronRight aria-hidden="true" />
          </Link>
        </Button>
      ) : null}
    </nav>
  );
}

export default function AdminOrdersPage({ loaderData }: Route.ComponentProps) {
  const { values, errors, page } = loaderData;
  return (
    <AdminPage title="Commandes" lead="Toutes les commandes, des plus récentes aux plus anciennes, 25 par page." wide>
      <SectionCard title="Rechercher et filtrer">
        <OrderFiltersForm values={values} errors={errors} />
      </SectionCard>
      <SectionCard title="Résultats">
        {page ? (
          <>
            {page.rows.length ? (
              <OrdersList orders={page.rows} label="Commandes" />
            ) : (
              <p className="text-sm text-muted-foreground">Aucune commande ne correspond à ces critères.</p>
            )}
            <Pagination page={page} query={filtersQuery(values)} />
          </>
        ) : (
          <p role="alert" className="text-sm text-destructive">
            Corrigez les filtres ci-dessus pour afficher les commandes.
          </p>
        )}
      </SectionCard>
    </AdminPage>
  );
}
