import { data } from "react-router";
import type { Route } from "./+types/admin.orders";
import { SectionCard } from "~/components/layout/section-card";
import { database } from "~/db/client.server";
import { filterValues, parseOrderFilters } from "~/features/admin/orders/order-filters";
import { OrderFiltersForm } from "~/features/admin/orders/ui/order-filters-form";
import { pagePositionFromSearch } from "~/features/admin/keyset.server";
import { KeysetPagination } from "~/features/admin/ui/keyset-pagination";
import { ordersListPage } from "~/features/admin/orders/orders-admin.server";
import { SearchTooBroadError } from "~/features/admin/search-timeout.server";
import { OrdersList } from "~/features/admin/orders/ui/orders-list";
import { requireAdmin } from "~/features/auth/guards.server";
import { AdminPage } from "~/features/admin/ui/admin-page";
import { layoutMeta, pageMeta } from "~/platform/seo/page-meta";

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
            <KeysetPagination
              page={page}
              label="Pagination des commandes"
              labels={{ previous: "Plus récentes", next: "Plus anciennes" }}
            />
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
