import { data } from "react-router";
import { z } from "~/lib/zod";
import type { Route } from "./+types/admin.customer";
import { SectionCard } from "~/components/layout/section-card";
import { SummaryList } from "~/components/layout/summary-list";
import { PageHeading } from "~/components/layout/page-heading";
import { database } from "~/db/client.server";
import { CustomerName } from "~/features/admin/ui/customer-name";
import { customerOrders, findCustomer } from "~/features/admin/customers-admin.server";
import { formatCountFr, formatDateTimeFr } from "~/lib/format-fr";
import { KeysetPagination } from "~/features/admin/ui/keyset-pagination";
import { OrdersList } from "~/features/admin/ui/orders-list";
import { pagePositionFromSearch } from "~/features/admin/keyset.server";
import { PaidTotals } from "~/features/admin/ui/paid-totals";
import { requireAdmin } from "~/features/auth/guards.server";
import { AdminBackLink } from "~/features/admin/ui/admin-back-link";
import { pageMeta } from "~/features/seo/page-meta";

export const handle = { lang: "fr" };

export const meta: Route.MetaFunction = () => [
  ...pageMeta({ title: "Fiche client" }),
  { name: "robots", content: "noindex" },
];

const customerId = z.guid();

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const id = customerId.safeParse(params.customerId);
  const db = database().db;
  const customer = id.success ? await findCustomer(db, id.data) : null;
  if (!customer) return data({ found: null }, { status: 404 });
  const position = pagePositionFromSearch(new URL(request.url).searchParams);
  return { found: { customer, orders: await customerOrders(db, customer.id, position) } };
}

export default function AdminCustomerPage({ loaderData }: Route.ComponentProps) {
  const { found } = loaderData;
  if (!found) {
    return (
      <>
        <PageHeading title="Client introuvable" lead="Ce client n'existe pas ou a été supprimé." />
        <div className="mx-auto grid max-w-5xl px-4 pb-16 sm:px-6">
          <AdminBackLink to="/admin/clients">Clients</AdminBackLink>
        </div>
      </>
    );
  }
  const { customer, orders } = found;
  return (
    <>
      <PageHeading title={customer.name} lead={customer.email ?? undefined} className="wrap-anywhere" />
      <div className="mx-auto grid max-w-5xl grid-cols-[minmax(0,1fr)] gap-6 px-4 pb-16 sm:px-6">
        <AdminBackLink to="/admin/clients">Clients</AdminBackLink>
        <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-6 md:grid-cols-2">
          <SectionCard title="Coordonnées">
            <SummaryList
              rows={[
                ["Nom", <CustomerName customer={customer} />],
                ["E-mail", customer.email ?? "—"],
                ["Compte du site", customer.accountEmail ?? "Aucun (réservation en invité)"],
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
      </div>
    </>
  );
}
