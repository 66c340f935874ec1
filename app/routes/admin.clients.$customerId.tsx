import { data } from "react-router";
import { z } from "~/lib/zod";
import type { Route } from "./+types/admin.clients.$customerId";
import { SectionCard } from "~/components/layout/section-card";
import { SummaryList } from "~/components/layout/summary-list";
import { database } from "~/db/client.server";
import { CustomerName } from "~/features/admin/ui/customer-name";
import { customerOrders, findCustomer } from "~/features/admin/customers/customers-admin.server";
import { customerMemberships } from "~/features/admin/memberships/memberships-admin.server";
import { MembershipsList } from "~/features/admin/memberships/ui/memberships-list";
import { formatCountFr, formatDateFr, formatDateTimeFr } from "~/lib/format-fr";
import { KeysetPagination } from "~/features/admin/ui/keyset-pagination";
import { OrdersList } from "~/features/admin/orders/ui/orders-list";
import { pagePositionFromSearch } from "~/features/admin/keyset.server";
import { PaidTotals } from "~/features/admin/customers/ui/paid-totals";
import { requireAdmin } from "~/features/auth/guards.server";
import { AdminPage } from "~/features/admin/ui/admin-page";
import { layoutMeta, pageMeta } from "~/platform/seo/page-meta";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta({ title: "Fiche client" }),
  ...layoutMeta(matches),
];

const customerId = z.guid();

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const id = customerId.safeParse(params.customerId);
  const db = database().db;
  const customer = id.success ? await findCustomer(db, id.data) : null;
  if (!customer) return data({ found: null }, { status: 404 });
  const position = pagePositionFromSearch(new URL(request.url).searchParams);
  const [orders, memberships] = await Promise.all([
    customerOrders(db, customer.id, position),
    customerMemberships(db, customer.id),
  ]);
  return { found: { customer, orders, memberships } };
}

export default function AdminCustomerPage({ loaderData }: Route.ComponentProps) {
  const { found } = loaderData;
  if (!found) {
    return <AdminPage title="Client introuvable" lead="Ce client n'existe pas ou a été supprimé." />;
  }
  const { customer, orders, memberships } = found;
  return (
    <AdminPage title={customer.name} lead={customer.email ?? undefined}>
      <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-6 md:grid-cols-2">
        <SectionCard title="Coordonnées">
          <SummaryList
            rows={[
              ["Nom", <CustomerName customer={customer} />],
              ["E-mail", customer.email ?? "—"],
              [
                "Compte du site",
                customer.accountEmail && customer.accountCreatedAt
                  ? `${customer.accountEmail}, créé le ${formatDateFr(customer.accountCreatedAt)}`
                  : "Aucun",
              ],
              ["Client depuis", formatDateTimeFr(customer.createdAt)],
            ]}
          />
          {customer.notes ? (
            <p className="mt-4 border-t pt-4 text-sm whitespace-pre-line text-muted-foreground">{customer.notes}</p>
          ) : null}
        </SectionCard>
        <SectionCard title="Totaux" subtitle="Commandes payées ou terminées, séparément pour chaque devise.">
          <SummaryList
            rows={[
              ["Commandes", formatCountFr(customer.orders)],
              ["Total payé", <PaidTotals paid={customer.paid} />],
            ]}
          />
        </SectionCard>
      </div>
      {memberships.length ? (
        <SectionCard title="Abonnement" subtitle="Démarré par la première commande payée de cette adresse.">
          <MembershipsList memberships={memberships} label="Abonnement du client" />
        </SectionCard>
      ) : null}
      <SectionCard title="Commandes">
        {orders.rows.length ? (
          <>
            <OrdersList orders={orders.rows} label="Commandes du client" withCustomer={false} />
            <KeysetPagination page={orders} label="Pagination des commandes du client" />
          </>
        ) : (
          <p className="text-sm text-muted-foreground">Ce client n'a aucune commande.</p>
        )}
      </SectionCard>
    </AdminPage>
  );
}
