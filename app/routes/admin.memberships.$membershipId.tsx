import { parseWithZod } from "@conform-to/zod/v4";
import { data, Link, redirect } from "react-router";
import type { Route } from "./+types/admin.memberships.$membershipId";
import { SectionCard } from "~/components/layout/section-card";
import { SummaryList } from "~/components/layout/summary-list";
import { database } from "~/db/client.server";
import { randomUUID } from "node:crypto";
import {
  cancelSchema,
  CONFIRM_CANCEL_NOW,
  REFUND_INVOICE_FIELD,
} from "~/features/admin/memberships/membership-actions";
import { CONFIRMED_FIELD } from "~/components/ui/confirm-step";
import {
  adminPlanChange,
  adminPlanChangeSchema,
  KEEP_PLAN_FIELD,
  PLAN_CHANGE_FIELD,
  PLAN_CHANGE_REFUSALS_FR,
} from "~/features/admin/memberships/plan-change-fr";
import { MembershipPlanForm } from "~/features/admin/memberships/ui/membership-plan-form";
import { changePlan, keepPlan, otherPlanQuote } from "~/features/memberships/plan-change.server";
import {
  findInvoiceOf,
  findMembershipDetails,
  refundKeys,
} from "~/features/admin/memberships/membership-details.server";
import { AdminPage } from "~/features/admin/ui/admin-page";
import { CustomerName } from "~/features/admin/ui/customer-name";
import { MembershipCancelForm } from "~/features/admin/memberships/ui/membership-cancel-form";
import { MembershipInvoices } from "~/features/admin/memberships/ui/membership-invoices";
import { MembershipStatusBadge } from "~/features/admin/memberships/ui/membership-status-badge";
import { StatusHistory } from "~/features/admin/ui/status-history";
import { requireAdmin } from "~/features/auth/guards.server";
import { cancelMembership } from "~/features/memberships/cancellation.server";
import { refundInvoice } from "~/features/memberships/invoice-refund.server";
import { membershipPlanName, membershipStatusLabel } from "~/features/memberships/membership-status";
import { refundSchema } from "~/features/payments/refund";
import { RefundList } from "~/features/payments/ui/refund-list";
import { refundFeedback } from "~/features/payments/refund-feedback";
import { paymentGateway } from "~/features/payments/live-gateway.server";
import { layoutMeta, pageMeta } from "~/platform/seo/page-meta";
import { WithdrawalList } from "~/features/withdrawal/ui/withdrawal-list";
import { withdrawalsOf } from "~/features/withdrawal/withdrawals-admin.server";
import type { Actor } from "~/lib/actor";
import { formatAmountFr, formatDateFr, formatDateTimeFr } from "~/lib/format-fr";
import { readFormData } from "~/lib/form-data.server";
import { siteOrigin } from "~/lib/site-origin.server";
import { redirectWithToast } from "~/lib/toast.server";
import { isUuid } from "~/lib/uuid";

export const meta: Route.MetaFunction = ({ data, matches }) => [
  ...pageMeta({ title: data?.found ? "Abonnement" : "Abonnement introuvable" }),
  ...layoutMeta(matches),
];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const details = await findMembershipDetails(database().db, params.membershipId);
  if (!details) return data({ found: null }, { status: 404 });
  const withdrawals = await withdrawalsOf(database().db, { membershipId: details.membership.id });
  const change = await otherPlanQuote(database().db, paymentGateway(), details.membership.id, new Date());
  const planChange = change ? adminPlanChange(details.membership, change) : null;
  return {
    found: {
      details,
      refundKeys: refundKeys(details),
      withdrawals,
      confirmCancelNow: new URL(request.url).search === CONFIRM_CANCEL_NOW,
      // A key of its own: the same form sent twice changes the plan, and charges, once.
      planChange: planChange && { ...planChange, key: randomUUID() },
    },
  };
}

const NOT_FOUND = () => new Response("Not Found", { status: 404 });

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const { membershipId } = params;
  if (!isUuid(membershipId)) throw NOT_FOUND();
  const formData = await readFormData(request);
  const actor: Actor = { userId: admin.id, label: admin.email };
  const page = `/admin/memberships/${membershipId}`;
  const db = database().db;

  const invoiceId = formData.get(REFUND_INVOICE_FIELD);
  if (typeof invoiceId === "string") {
    const invoice = await findInvoiceOf(db, membershipId, invoiceId);
    if (!invoice) throw NOT_FOUND();
    const submission = parseWithZod(formData, { schema: refundSchema });
    if (submission.status !== "success") {
      return data({ refund: { invoiceId, result: submission.reply() } }, { status: 400 });
    }
    const outcome = await refundInvoice(db, paymentGateway(), { invoiceId, refund: submission.value, actor });
    if (outcome.kind === "not-found") throw NOT_FOUND();
    const feedback = refundFeedback(outcome, { kind: "facture", paid: invoice.amount, currency: invoice.currency });
    if ("toast" in feedback) return redirectWithToast(page, feedback.toast);
    if ("confirmFull" in feedback) {
      const { reason, idempotencyKey } = submission.value;
      const confirmFull = { amount: feedback.confirmFull, reason, idempotencyKey };
      return { refund: { invoiceId, result: submission.reply(), confirmFull } };
    }
    const result = submission.reply({ fieldErrors: { amount: [feedback.amountError] } });
    return data({ refund: { invoiceId, result } }, { status: 400 });
  }

  if (formData.has(PLAN_CHANGE_FIELD)) return changePlanAsAdmin(request, formData, { membershipId, actor, page });
  if (formData.has(KEEP_PLAN_FIELD)) {
    const outcome = await keepPlan(db, paymentGateway(), { membershipId, actor, origin: siteOrigin() });
    switch (outcome.kind) {
      case "not-found":
        throw NOT_FOUND();
      case "kept":
        return redirectWithToast(page, {
          type: "success",
          title: `Formule ${membershipPlanName(outcome.plan)} conservée`,
          description: `Le passage en ${membershipPlanName(outcome.instead)} est annulé. Le membre a reçu un e-mail.`,
        });
      case "refused":
        return redirectWithToast(page, {
          type: "error",
          title: "Changement impossible",
          description: PLAN_CHANGE_REFUSALS_FR[outcome.reason],
        });
      case "nothing-scheduled":
        return redirectWithToast(page, {
          type: "error",
          title: "Aucun changement de formule programmé",
          description: "Rien n'a été modifié.",
        });
    }
  }

  const submission = parseWithZod(formData, { schema: cancelSchema });
  if (submission.status !== "success") return data({ error: "Action inconnue : rechargez la page." }, { status: 400 });
  // Ending it at once cannot be undone: only from its "are you sure?" step.
  if (submission.value.cancel === "now" && formData.get(CONFIRMED_FIELD) !== "yes") {
    return redirect(`${page}${CONFIRM_CANCEL_NOW}`);
  }
  const outcome = await cancelMembership(db, {
    membershipId,
    atOnce: submission.value.cancel === "now",
    actor,
    now: new Date(),
    origin: siteOrigin(),
  });
  switch (outcome.kind) {
    case "not-found":
      throw NOT_FOUND();
    case "not-live":
      return redirectWithToast(page, {
        type: "error",
        title: "Résiliation impossible",
        description: "Cet abonnement est déjà résilié ou terminé : rien n'a été modifié.",
      });
    case "cancelled":
      return redirectWithToast(page, {
        type: "success",
        title: outcome.atOnce ? "Abonnement résilié" : "Résiliation programmée",
        description: outcome.atOnce
          ? "L'abonnement prend fin maintenant, sans nouveau prélèvement."
          : `Le membre garde l'accès jusqu'au ${formatDateTimeFr(outcome.accessUntil)}, sans nouveau prélèvement.`,
      });
  }
}

async function changePlanAsAdmin(
  request: Request,
  formData: FormData,
  { membershipId, actor, page }: { membershipId: string; actor: Actor; page: string },
) {
  const form = adminPlanChangeSchema.safeParse(Object.fromEntries(formData));
  if (!form.success) return data({ error: "Formulaire illisible : rechargez la page." }, { status: 400 });
  const outcome = await changePlan(database().db, paymentGateway(), {
    membershipId,
    to: form.data.planChange,
    expectedAmount: form.data.expectedAmount ?? null,
    idempotencyKey: form.data.key,
    actor,
    now: new Date(),
    origin: siteOrigin(),
  });
  const name = membershipPlanName(form.data.planChange);
  switch (outcome.kind) {
    case "not-found":
      throw NOT_FOUND();
    case "changed":
      return redirectWithToast(page, {
        type: "success",
        title: `Formule ${name}`,
        description:
          outcome.charged > 0
            ? `Différence prélevée : ${formatAmountFr(outcome.charged, outcome.currency)}. Le membre a reçu un e-mail.`
            : "Le membre a reçu un e-mail.",
      });
    case "scheduled":
      return redirectWithToast(page, {
        type: "success",
        title: `Passage en ${name} programmé`,
        description: `Au ${formatDateTimeFr(outcome.from)}. Le membre a reçu un e-mail.`,
      });
    case "declined":
      return redirectWithToast(page, {
        type: "error",
        title: "Carte refusée",
        description: `${outcome.message} La formule n'a pas changé.`,
      });
    case "amount-changed":
      return redirectWithToast(page, {
        type: "error",
        title: "Montant modifié",
        description:
          "La différence a changé depuis l'affichage de la page : rien n'a été prélevé, vérifiez et recommencez.",
      });
    case "refused":
      return redirectWithToast(page, {
        type: "error",
        title: "Changement impossible",
        description: PLAN_CHANGE_REFUSALS_FR[outcome.reason],
      });
  }
}

export default function AdminMembershipPage({ loaderData, actionData }: Route.ComponentProps) {
  const { found } = loaderData;
  if (!found) {
    return <AdminPage title="Abonnement introuvable" lead="Cet abonnement n'existe pas ou a été supprimé." />;
  }
  const { membership, customer, order, invoices, refunds, history } = found.details;
  const page = `/admin/memberships/${membership.id}`;
  const date = (value: Date | null) => (value ? formatDateTimeFr(value) : "—");
  const refund = actionData && "refund" in actionData ? actionData.refund : undefined;
  const invoicePeriod = (invoiceId: string | null) => {
    const invoice = invoices.find((candidate) => candidate.id === invoiceId);
    return invoice ? `${formatDateFr(invoice.periodStart)} → ${formatDateFr(invoice.periodEnd)}` : "—";
  };
  return (
    <AdminPage title={`Abonnement ${membershipPlanName(membership.plan)}`} lead={customer.name}>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <SectionCard
          title="Statut"
          className="lg:col-start-2 lg:row-start-1 lg:self-start"
          contentClassName="grid gap-4"
        >
          <p>
            <MembershipStatusBadge status={membership.status} />
          </p>
          {actionData && "error" in actionData ? (
            <p role="alert" className="text-sm text-destructive">
              {actionData.error}
            </p>
          ) : null}
          <MembershipCancelForm membership={membership} confirmNow={found.confirmCancelNow} />
          <MembershipPlanForm change={found.planChange} />
        </SectionCard>
        <SectionCard title="Abonnement" className="lg:col-start-1 lg:row-start-1">
          <SummaryList
            rows={[
              ["Formule", membershipPlanName(membership.plan)],
              ["Cotisation par trimestre", formatAmountFr(membership.price, membership.currency)],
              ["Devise", membership.currency],
              ["Carte", `${membership.cardBrand} •••• ${membership.cardLast4}`],
              [
                "Facturé par",
                membership.providerSubscriptionRef
                  ? `Stripe (abonnement ${membership.providerSubscriptionRef})`
                  : "Le site (tâche de facturation)",
              ],
              ["Créé le", formatDateTimeFr(membership.createdAt)],
              ["Fin de l'essai", formatDateTimeFr(membership.trialEndsAt)],
              [
                "Période en cours",
                `${formatDateTimeFr(membership.currentPeriodStart)} → ${formatDateTimeFr(membership.currentPeriodEnd)}`,
              ],
              ["Résiliation à la fin de la période", membership.cancelAtPeriodEnd ? "Oui" : "Non"],
              ["Fin du délai de paiement", date(membership.graceEndsAt)],
              ["Terminé le", date(membership.endedAt)],
            ]}
          />
        </SectionCard>
        <SectionCard title="Membre" className="lg:col-start-1 lg:row-start-2">
          <SummaryList
            rows={[
              [
                "Nom",
                <Link to={`/admin/clients/${customer.id}`} className="text-link underline-offset-4 hover:underline">
                  <CustomerName customer={customer} />
                </Link>,
              ],
              ["E-mail", customer.email ?? "—"],
              [
                "Commande d'origine",
                order ? (
                  <Link
                    to={`/admin/orders/${order.id}`}
                    className="font-mono text-xs text-link underline-offset-4 hover:underline"
                  >
                    {order.orderNumber}
                  </Link>
                ) : (
                  "—"
                ),
              ],
            ]}
          />
        </SectionCard>
        <SectionCard
          title="Factures"
          subtitle="Une cotisation par trimestre, de la plus récente à la plus ancienne."
          className="lg:col-start-1 lg:row-start-3"
        >
          <MembershipInvoices invoices={invoices} refundKeys={found.refundKeys} action={page} refund={refund} />
        </SectionCard>
        <SectionCard title="Remboursements" className="lg:col-start-1 lg:row-start-4">
          <RefundList refunds={refunds} describe={(refund) => `Facture ${invoicePeriod(refund.invoiceId)}`} />
        </SectionCard>
        <SectionCard
          title="Rétractations"
          subtitle="Déclarées par le membre via la fonction de rétractation du site."
          className="lg:col-start-1 lg:row-start-5"
        >
          <WithdrawalList withdrawals={found.withdrawals} />
        </SectionCard>
        <SectionCard
          title="Historique"
          subtitle="Du plus récent au plus ancien."
          className="lg:col-start-2 lg:row-span-3 lg:row-start-2 lg:self-start"
        >
          <StatusHistory events={history} statusLabel={membershipStatusLabel} created="Abonnement créé" />
        </SectionCard>
      </div>
    </AdminPage>
  );
}
