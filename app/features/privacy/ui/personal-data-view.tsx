import type * as React from "react";
import { SummaryList } from "~/components/layout/summary-list";
import { formatAmountFr, formatDateTimeFr } from "~/lib/format-fr";
import { orderStatusLabel } from "~/features/booking/order-status";
import {
  invoiceStatusLabel,
  membershipPlanName,
  membershipStatusLabel,
} from "~/features/memberships/membership-status";
import type { ChargeOutcome } from "~/features/payments/gateway";
import type { PersonalData } from "~/features/privacy/personal-data.server";
import { withdrawalOutcomeLabel } from "~/features/withdrawal/withdrawal-outcome";

const PAYMENT_OUTCOMES: Record<ChargeOutcome, string> = {
  succeeded: "réussi",
  declined: "refusé",
  insufficient_funds: "refusé (provision insuffisante)",
};

/** The outbox's statuses (mail/outbox.server.ts). */
const MAIL_STATUSES: Record<string, string> = {
  pending: "en attente",
  sending: "en cours d'envoi",
  sent: "envoyé",
  failed: "échec de l'envoi",
};

function Part({ title, empty, children }: { title: string; empty: string; children: React.ReactNode[] }) {
  return (
    <section className="grid gap-3">
      <h3 className="font-semibold">
        {title} <span className="font-normal text-muted-foreground">({children.length})</span>
      </h3>
      {children.length ? (
        <ul className="grid gap-3">{children}</ul>
      ) : (
        <p className="text-sm text-muted-foreground">{empty}</p>
      )}
    </section>
  );
}

function Entry({ children }: { children: React.ReactNode }) {
  return <li className="rounded-lg border p-4 text-sm">{children}</li>;
}

type Refund = PersonalData["customers"][number]["orders"][number]["refunds"][number];

/** Summary rows for refunds: "Remboursement 1: 12,50 €, reason". */
function refundRows(refunds: Refund[]): [string, React.ReactNode][] {
  return refunds.map((refund, index) => [
    `Remboursement ${index + 1}`,
    `${formatAmountFr(refund.amount, refund.currency)}, ${formatDateTimeFr(refund.createdAt)} : ${refund.reason}`,
  ]);
}

type Customer = PersonalData["customers"][number];

function CustomerEntry({ customer }: { customer: Customer }) {
  return (
    <Entry>
      <p className="font-medium">{customer.name}</p>
      {customer.notes ? <p className="mt-1 whitespace-pre-line text-muted-foreground">{customer.notes}</p> : null}
      <ul className="mt-3 grid gap-3">
        {customer.orders.map((order) => (
          <li key={order.orderNumber} className="border-t pt-3">
            <SummaryList
              rows={[
                ["Commande", <span className="font-mono text-xs">{order.orderNumber}</span>],
                ["Statut", orderStatusLabel(order.status)],
                ["Montant", formatAmountFr(order.amount, order.currency)],
                ["Date", formatDateTimeFr(order.createdAt)],
                ...order.payments.map((payment, index): [string, React.ReactNode] => [
                  `Paiement ${index + 1}`,
                  `${payment.brand} •••• ${payment.last4}, ${PAYMENT_OUTCOMES[payment.outcome as ChargeOutcome] ?? payment.outcome}`,
                ]),
                ...refundRows(order.refunds),
              ]}
            />
          </li>
        ))}
      </ul>
    </Entry>
  );
}

type Membership = PersonalData["memberships"][number];

function MembershipEntry({ membership }: { membership: Membership }) {
  const price = formatAmountFr(membership.price, membership.currency);
  return (
    <Entry>
      <SummaryList
        rows={[
          ["Formule", `${membershipPlanName(membership.plan)}, ${price} par trimestre`],
          ["Statut", membershipStatusLabel(membership.status)],
          ["Début", formatDateTimeFr(membership.createdAt)],
          ["Fin de l'essai", formatDateTimeFr(membership.trialEndsAt)],
          [
            "Période en cours",
            `${formatDateTimeFr(membership.currentPeriodStart)} → ${formatDateTimeFr(membership.currentPeriodEnd)}`,
          ],
          [
            "Fin",
            membership.endedAt
              ? formatDateTimeFr(membership.endedAt)
              : membership.cancelAtPeriodEnd
                ? "en fin de période"
                : "—",
          ],
          ["Carte", `${membership.cardBrand} •••• ${membership.cardLast4}`],
          ["Changements", String(membership.events.length)],
        ]}
      />
      <ul className="mt-3 grid gap-3">
        {membership.invoices.map((invoice) => (
          <li key={invoice.periodStart.toString()} className="border-t pt-3">
            <SummaryList
              rows={[
                ["Facture", `${formatDateTimeFr(invoice.periodStart)} → ${formatDateTimeFr(invoice.periodEnd)}`],
                ["Statut", invoiceStatusLabel(invoice.status)],
                ["Montant", formatAmountFr(invoice.amount, invoice.currency)],
                ...refundRows(invoice.refunds),
              ]}
            />
          </li>
        ))}
      </ul>
    </Entry>
  );
}

/** Everything found about the address, grouped as the export file groups it. */
export function PersonalDataView({ data }: { data: PersonalData }) {
  const { account } = data;
  return (
    <div className="grid gap-6">
      <Part title="Compte" empty="Aucun compte avec cette adresse.">
        {account
          ? [
              <Entry key={account.id}>
                <SummaryList
                  rows={[
                    ["Nom", account.fullName ?? account.name],
                    ["E-mail", account.email],
                    ["Créé le", formatDateTimeFr(account.createdAt)],
                    ["Rôles", account.roles.length ? account.roles.join(", ") : "—"],
                    ["Sessions", String(account.sessions.length)],
                  ]}
                />
              </Entry>,
            ]
          : []}
      </Part>
      <Part title="Clients et commandes" empty="Aucune réservation avec cette adresse.">
        {data.customers.map((customer) => (
          <CustomerEntry key={customer.id} customer={customer} />
        ))}
      </Part>
      <Part title="Adhésions" empty="Aucune adhésion.">
        {data.memberships.map((membership) => (
          <MembershipEntry key={membership.createdAt.toString()} membership={membership} />
        ))}
      </Part>
      <Part title="Messages de contact" empty="Aucun message.">
        {data.contactMessages.map((message, index) => (
          <Entry key={index}>
            <p className="text-muted-foreground">
              {formatDateTimeFr(message.createdAt)} · {message.name}
              {message.phone ? ` · ${message.phone}` : null}
            </p>
            <p className="mt-1 whitespace-pre-line">{message.message}</p>
          </Entry>
        ))}
      </Part>
      <Part title="Demandes de désinscription" empty="Aucune demande de désinscription.">
        {data.unsubscribeRequests.map((request, index) => (
          <Entry key={index}>
            {formatDateTimeFr(request.createdAt)} ·{" "}
            {request.confirmedAt ? `confirmée le ${formatDateTimeFr(request.confirmedAt)}` : "non confirmée"}
          </Entry>
        ))}
      </Part>
      <Part title="Rétractations" empty="Aucune rétractation.">
        {data.withdrawals.map((withdrawal, index) => (
          <Entry key={index}>
            {formatDateTimeFr(withdrawal.receivedAt)} · {withdrawal.name} · n° {withdrawal.contractNumber} ·{" "}
            {withdrawalOutcomeLabel(withdrawal.outcome)}
          </Entry>
        ))}
      </Part>
      <Part title="E-mails envoyés" empty="Aucun e-mail.">
        {data.emails.map((mail, index) => (
          <Entry key={index}>
            {formatDateTimeFr(mail.createdAt)} · {mail.subject} · {MAIL_STATUSES[mail.status] ?? mail.status}
          </Entry>
        ))}
      </Part>
    </div>
  );
}
