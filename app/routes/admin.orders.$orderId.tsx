import { parseWithZod } from "@conform-to/zod/v4";
import { data, Link } from "react-router";
import type { Route } from "./+types/admin.orders.$orderId";
import { SectionCard } from "~/components/layout/section-card";
import { SummaryList } from "~/components/layout/summary-list";
import { database } from "~/db/client.server";
import { formatAmountFr, formatDateTimeFr, formatDayFr } from "~/lib/format-fr";
import { findOrderDetails } from "~/features/admin/orders/order-details.server";
import { isUuid } from "~/lib/uuid";
import { membershipPlanName, membershipStatusLabel } from "~/features/memberships/membership-status";
import { OrderHistory } from "~/features/admin/orders/ui/order-history";
import { OrderPayments } from "~/features/admin/orders/ui/order-payments";
import { orderStatusLabel } from "~/features/booking/order-status";
import { orderStatusChangeSchema } from "~/features/admin/orders/order-status-actions";
import { OrderStatusBadge } from "~/features/admin/orders/ui/order-status-badge";
import { OrderStatusForm } from "~/features/admin/orders/ui/order-status-form";
import { requireAdmin } from "~/features/auth/guards.server";
import { changeOrderStatus, OrderNotFoundError, OrderTransitionError } from "~/features/booking/order-status.server";
import { describePassengersFr } from "~/features/booking/passengers";
import { AdminPage } from "~/features/admin/ui/admin-page";
import { layoutMeta, pageMeta } from "~/platform/seo/page-meta";
import { redirectWithToast } from "~/lib/toast.server";
import { readFormData } from "~/lib/form-data.server";
import { refundOrder } from "~/features/booking/order-refund.server";
import { findOrder } from "~/features/booking/orders.server";
import type { Actor } from "~/lib/actor";
import { refundSchema } from "~/features/payments/refund";
import { refundFeedback } from "~/features/payments/refund-feedback";
import { paymentGateway } from "~/features/payments/live-gateway.server";
import { RefundForm } from "~/features/payments/ui/refund-form";
import { RefundList } from "~/features/payments/ui/refund-list";
import { WithdrawalList } from "~/features/withdrawal/ui/withdrawal-list";
import { withdrawalsOf } from "~/features/withdrawal/withdrawals-admin.server";

export const meta: Route.MetaFunction = ({ data, matches }) => [
  ...pageMeta({ title: data?.details ? `Commande ${data.details.order.orderNumber}` : "Commande introuvable" }),
  ...layoutMeta(matches),
];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const details = await findOrderDetails(database().db, params.orderId);
  if (!details) return data({ details: null, refundKey: null, withdrawals: [] }, { status: 404 });
  const withdrawals = await withdrawalsOf(database().db, { orderId: details.order.id });
  // A new key for each page load: the refund form sent twice (a double click, a resubmission) refunds once.
  return { details, refundKey: crypto.randomUUID(), withdrawals };
}

/** The refund form's hidden field, which tells its submissions from the status buttons'. */
const REFUND_INTENT = { name: "intent", value: "refund" };

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  if (!isUuid(params.orderId)) throw new Response("Not Found", { status: 404 });
  const formData = await readFormData(request);
  const page = `/admin/orders/${params.orderId}`;
  const actor = { userId: admin.id, label: admin.email };
  if (formData.get(REFUND_INTENT.name) === REFUND_INTENT.value) return refund(formData, params.orderId, page, actor);
  const submission = parseWithZod(formData, { schema: orderStatusChangeSchema });
  if (submission.status !== "success") {
    const error = Object.values(submission.error ?? {}).flat()[0] ?? "Changement de statut invalide.";
    return data({ error }, { status: 400 });
  }
  const { to, note } = submission.value;
  try {
    const change = await changeOrderStatus(database().db, {
      orderId: params.orderId,
      to,
      note,
      actor,
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

async function refund(formData: FormData, orderId: string, page: string, actor: Actor) {
  const submission = parseWithZod(formData, { schema: refundSchema });
  if (submission.status !== "success") return data({ refund: submission.reply() }, { status: 400 });
  const order = await findOrder(database().db, orderId);
  if (!order) throw new Response("Not Found", { status: 404 });
  const outcome = await refundOrder(database().db, paymentGateway(), { orderId, refund: submission.value, actor });
  if (outcome.kind === "not-found") throw new Response("Not Found", { status: 404 });
  const feedback = refundFeedback(outcome, { kind: "commande", paid: order.amount, currency: order.currency });
  if ("toast" in feedback) return redirectWithToast(page, feedback.toast);
  if ("confirmFull" in feedback) {
    const { reason, idempotencyKey } = submission.value;
    return { refund: submission.reply(), confirmFull: { amount: feedback.confirmFull, reason, idempotencyKey } };
  }
  return data({ refund: submission.reply({ fieldErrors: { amount: [feedback.amountError] } }) }, { status: 400 });
}

export default function AdminOrderPage({ loaderData, actionData }: Route.ComponentProps) {
  const { details, refundKey, withdrawals } = loaderData;
  if (!details) {
    return <AdminPage title="Commande introuvable" lead="Cette commande n'existe pas ou a été supprimée." />;
  }
  const { order, customer, payments, history, refunds, membership } = details;
  const amount = (minor: number) => formatAmountFr(minor, order.currency);
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
          <OrderStatusForm
            key={order.status}
            status={order.status}
            amount={order.amount}
            error={actionData && "error" in actionData ? actionData.error : undefined}
          />
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
              [
                membership?.started ? "Abonnement démarré par cette commande" : "Abonnement",
                membership ? (
                  <Link
                    to={`/admin/memberships/${membership.id}`}
                    className="text-link underline-offset-4 hover:underline"
                  >
                    {`${membershipPlanName(membership.plan)} · ${membershipStatusLabel(membership.status)}`}
                  </Link>
                ) : (
                  "—"
                ),
              ],
            ]}
          />
        </SectionCard>
        <SectionCard title="Paiements" className="lg:col-start-1 lg:row-start-3">
          <OrderPayments payments={payments} />
        </SectionCard>
        <SectionCard title="Remboursements" className="lg:col-start-1 lg:row-start-4" contentClassName="grid gap-4">
          {refunds.charged ? (
            <SummaryList
              rows={[
                ["Payé", amount(order.amount)],
                ["Remboursé", amount(refunds.refunded)],
                ["Reste remboursable", amount(refunds.refundable)],
              ]}
            />
          ) : null}
          <RefundList refunds={refunds.rows} />
          {refunds.refundable > 0 ? (
            <RefundForm
              key={refundKey}
              refundable={refunds.refundable}
              currency={order.currency}
              idempotencyKey={refundKey}
              lastResult={actionData && "refund" in actionData ? actionData.refund : undefined}
              hidden={REFUND_INTENT}
              confirmFull={actionData && "confirmFull" in actionData ? actionData.confirmFull : undefined}
            />
          ) : (
            <p className="text-sm text-muted-foreground">
              {refunds.charged
                ? "Commande entièrement remboursée : il n'y a plus rien à rembourser."
                : "Cette commande n'a pas été payée : il n'y a rien à rembourser."}
            </p>
          )}
        </SectionCard>
        <SectionCard
          title="Rétractations"
          subtitle="Déclarées par le client via la fonction de rétractation du site."
          className="lg:col-start-1 lg:row-start-5"
        >
          <WithdrawalList withdrawals={withdrawals} />
        </SectionCard>
        <SectionCard
          title="Historique"
          subtitle="Du plus récent au plus ancien."
          className="lg:col-start-2 lg:row-span-3 lg:row-start-2 lg:self-start"
        >
          <OrderHistory events={history} />
        </SectionCard>
      </div>
    </AdminPage>
  );
}
