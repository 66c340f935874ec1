import type { Route } from "./+types/admin.customers";
import { SectionCard } from "~/components/layout/section-card";
import { database } from "~/db/client.server";
import { clientSearchFromParams } from "~/features/admin/customer-search";
import { ClientSearchForm } from "~/features/admin/ui/customer-search-form";
import { ClientTable } from "~/features/admin/ui/customer-table";
import { listClients } from "~/features/admin/customers-admin.server";
import { KeysetPagination } from "~/features/admin/ui/keyset-pagination";
import { pagePositionFromSearch } from "~/features/admin/keyset.server";
import { requireAdmin } from "~/features/auth/guards.server";
import { AdminPage } from "~/features/admin/ui/admin-page";
import { layoutMeta, pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta({ title: "Clients" }), ...layoutMeta(matches)];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const search = clientSearchFromParams(params);
  const clients = await listClients(database().db, { search: search.term, position: pagePositionFromSearch(params) });
  return { search, clients };
}

export default function ClientsPage({ loaderData }: Route.ComponentProps) {
  const { search, clients } = loaderData;
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
        <ClientSearchForm search={search} />
        {clients.rows.length ? (
          <div>
            <ClientTable clients={clients.rows} />
            <KeysetPagination page={clients} label="Pagination des clients" />
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">{empty}</p>
        )}
      </SectionCard>
    </AdminPage>
  );
}
