import { data } from "react-router";
import type { Route } from "./+types/admin.emails.$mailId";
import { SectionCard } from "~/components/layout/section-card";
import { SummaryList } from "~/components/layout/summary-list";
import { StatusBadge } from "~/components/ui/status-badge";
import { database } from "~/db/client.server";
import { findOutboxMail } from "~/features/admin/emails/outbox-mails.server";
import { outboxStatus } from "~/features/admin/emails/outbox-status";
import { MailPreview } from "~/features/admin/emails/ui/mail-preview";
import { previewHtml } from "~/features/admin/system/email-samples";
import { AdminPage } from "~/features/admin/ui/admin-page";
import { requireAdmin } from "~/features/auth/guards.server";
import { formatDateTimeFr } from "~/lib/format-fr";
import { layoutMeta, pageMeta } from "~/platform/seo/page-meta";

export const meta: Route.MetaFunction = ({ data, matches }) => [
  ...pageMeta({ title: data?.mail ? `E-mail : ${data.mail.subject}` : "E-mail introuvable" }),
  ...layoutMeta(matches),
];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const mail = await findOutboxMail(database().db, params.mailId);
  if (!mail) return data({ mail: null }, { status: 404 });
  const attachments = mail.attachments ?? [];
  return {
    mail: {
      id: mail.id,
      to: mail.to,
      subject: mail.subject,
      status: mail.status,
      attempts: mail.attempts,
      lastError: mail.lastError,
      createdAt: mail.createdAt,
      sentAt: mail.sentAt,
      failedAt: mail.failedAt,
      composed: mail.template === null,
      text: mail.textBody,
      html: mail.htmlBody ? previewHtml({ html: mail.htmlBody, attachments }) : null,
      attachments: attachments.map(({ filename, contentType, cid }, index) => ({
        filename,
        contentType,
        cid,
        href: `/admin/emails/${mail.id}/pieces/${index}`,
      })),
    },
  };
}

const when = (date: Date | null) => (date ? formatDateTimeFr(date) : "—");

export default function OutboxMailPage({ loaderData }: Route.ComponentProps) {
  const { mail } = loaderData;
  if (!mail) return <AdminPage title="E-mail introuvable" lead="Cet e-mail n'existe pas ou a été effacé." />;
  const { label, tone } = outboxStatus(mail.status);
  return (
    <AdminPage title={mail.subject} lead={mail.to}>
      <SectionCard title="Envoi">
        <SummaryList
          rows={[
            ["Statut", <StatusBadge tone={tone}>{label}</StatusBadge>],
            ["Destinataire", mail.to],
            ["Créé le", when(mail.createdAt)],
            ["Envoyé le", when(mail.sentAt)],
            ["Tentatives", String(mail.attempts)],
            ["Abandonné le", when(mail.failedAt)],
            ["Dernière erreur", mail.lastError ?? "—"],
          ]}
        />
      </SectionCard>
      <SectionCard title="Tel que reçu">
        {mail.composed ? (
          <MailPreview
            label={mail.subject}
            subject={mail.subject}
            attachments={mail.attachments}
            html={mail.html}
            text={mail.text}
          />
        ) : (
          <p className="text-sm text-muted-foreground">
            Pas encore composé : l'envoi le compose à partir des données enregistrées avec lui, puis il s'affiche ici.
          </p>
        )}
      </SectionCard>
    </AdminPage>
  );
}
