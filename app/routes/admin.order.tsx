import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { Route } from "./+types/admin.order";
import { SectionCard } from "~/components/layout/section-card";
import { SummaryList } from "~/components/layout/summary-list";
import { database } from "~/db/client.server";
import { formatAmountFr, formatDateTimeFr, formatDayFr } from "~/lib/format-fr";
import { findOrderDetails, isOrderId } from "~/features/admin/order-details.server";
import { OrderHistory } from "~/features/admin/ui/order-history";
import { OrderPayments } from "~/features/admin/ui/order-payments";
import { orderStatusLabel } from "~/features/booking/order-status";
import { statusChangeSchema } from "~/features/admin/order-status-actions";
import { OrderStatusBadge } from "~/features/admin/ui/order-status-badge";
import { OrderStatusForm } from "~/features/admin/ui/order-status-form";
import { requireAdmin } from "~/features/auth/guards.server";
import { changeOrderStatus, OrderNotFoundError, OrderTransitionError } from "~/features/booking/order-status.server";
import { describePassengersFr } from "~/features/booking/passengers";
import { AdminPage } from "~/features/admin/ui/admin-page";
import { layoutMeta, pageMeta } from "~/features/seo/page-meta";
import { redirectWithToast } from "~/lib/toast.server";
import { readFormData } from "~/lib/form-data.server";

export const meta: Route.MetaFunction = ({ data, matches }) => [
  ...pageMeta({ title: data?.details ? `Commande ${data.details.order.orderNumber}` : "Commande introuvable" }),
  ...layoutMeta(matches),
];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const details = await findOrderDetails(database().db, params.orderId);
  if (!details) return data({ details: null }, { status: 404 });
  return { details };
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  if (!isOrderId(params.orderId)) throw new Response("Not Found", { status: 404 });
  const submission = parseWithZod(await readFormData(request), { schema: statusChangeSchema });
  if (submission.status !== "success") {
    const error = Object.values(submission.error ?? {}).flat()[0] ?? "Changement de statut invalide.";
    return data({ error }, { status: 400 });
  }
  const page = `/admin/orders/${params.orderId}`;
  const { to, note } = submission.value;
  try {
    const change = await changeOrderStatus(database().db, {
      orderId: params.orderId,
      to,
      note,
      actor: { userId: admin.id, label: admin.email },
    });
    return redirectWithToast(page, {
      type: "success",
      title: "Statut mis à jour",
      description: `${orderStatusLabel(change.from)} → ${orderStatusLabel(change.to)}`,
    });
  } catch (error) {
    if (error instanceof OrderNotFoundError) throw new Response("Not Found", { status: 404 });
    if (!(error instanceof OrderTransitionError)) throw error;
    // A stale page or a second click: the order has moved on, and nothing was changed.
    return redirectWithToast(page, {
      type: "error",
      title: "Changement refusé",
      description: `Une commande « ${orderStatusLabel(error.from)} » ne peut pas passer à « ${orderStatusLabel(error.to)} ». Rien n'a été modifié.`,
    });
  }
}

export default function AdminOrderPage({ loaderData, actionData }: Route.ComponentProps) {
  const { details } = loaderData;
  if (!details) {
    return <AdminPage title="Commande introuvable" lead="Cette commande n'existe pas ou a été supprimée." />;
  }
  const { order, customer, payments, history } = details;
  return (
    <AdminPage title={`Commande ${order.orderNumber}`} lead={customer.fullName}>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <SectionCard
          title="Statut"
          className="lg:col-start-2 lg:row-start-1 lg:self-start"
          contentClassName="grid gap-4"
        >
          <p>
            <OrderStatusBadge status={order.status} />
          </p>
          {/* Keyed on the status, so that the note starts empty after each change. */}
          <OrderStatusForm key={order.status} status={order.status} error={actionData?.error} />
        </SectionCard>
        <SectionCard title="Réservation" className="lg:col-start-1 lg:row-start-1">
          <SummaryList
            rows={[
              ["Service", order.serviceType],
              ["Aéroport", order.airport ?? "—"],
              ["Date du vol", order.flightDate ? formatDayFr(order.flightDate) : "—"],
              ["Voyageurs", describePassengersFr(order)],
              ["Montant", `${formatAmountFr(order.amount, order.currency)} (${order.currency})`],
              ["Créée le", formatDateTimeFr(order.createdAt)],
            ]}
          />
        </SectionCard>
        <SectionCard title="Client" className="lg:col-start-1 lg:row-start-2">
          <SummaryList
            rows={[
              ["Nom", customer.fullName],
              ["E-mail", customer.email ?? "—"],
              ["Notes", customer.notes ? <span className="whitespace-pre-line">{customer.notes}</span> : "—"],
            ]}
          />
        </SectionCard>
        <SectionCard title="Paiements" className="lg:col-start-1 lg:row-start-3">
          <OrderPayments payments={payments} />
        </SectionCard>
        <SectionCard
          title="Historique"
          subtitle="Du plus récent au plus ancien."
          className="lg:col-start-2 lg:row-span-2 lg:row-start-2 lg:self-start"
        >
          <OrderHistory events={history} />
        </SectionCard>
      </div>
    </AdminPage>
  );
}
