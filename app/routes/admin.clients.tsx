import type { Route } from "./+types/admin.clients";
import { SectionCard } from "~/components/layout/section-card";
import { database } from "~/db/client.server";
import { customerSearchFromParams } from "~/features/admin/customer-search";
import { CustomerSearchForm } from "~/features/admin/ui/customer-search-form";
import { CustomerTable } from "~/features/admin/customers/ui/customer-table";
import { listCustomers } from "~/features/admin/customers/customers-admin.server";
import { KeysetPagination } from "~/features/admin/ui/keyset-pagination";
import { pagePositionFromSearch } from "~/features/admin/keyset.server";
import { requireAdmin } from "~/features/auth/guards.server";
import { AdminPage } from "~/features/admin/ui/admin-page";
import { layoutMeta, pageMeta } from "~/platform/seo/page-meta";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta({ title: "Clients" }), ...layoutMeta(matches)];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const search = customerSearchFromParams(params);
  const customers = await listCustomers(database().db, {
    search: search.term,
    position: pagePositionFromSearch(params),
  });
  return { search, customers };
}

export default function AdminCustomersPage({ loaderData }: Route.ComponentProps) {
  const { search, customers } = loaderData;
  const empty = search.term ? `Aucun client ne correspond à « ${search.query} ».` : "Aucun client pour le moment.";
  return (
    <AdminPage
      title="Clients"
      lead="Les clients, leurs commandes et ce qu'ils ont payé, du plus récent au plus ancien."
    >
      <SectionCard
        title={search.term ? `Résultats pour « ${search.query} »` : "Tous les clients"}
        subtitle="Les totaux payés comptent les commandes payées ou terminées, séparément pour chaque devise."
        contentClassName="grid gap-6"
      >
        <CustomerSearchForm search={search} />
        {customers.rows.length ? (
          <div>
            <CustomerTable customers={customers.rows} />
            <KeysetPagination page={customers} label="Pagination des clients" />
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">{empty}</p>
        )}
      </SectionCard>
    </AdminPage>
  );
}
