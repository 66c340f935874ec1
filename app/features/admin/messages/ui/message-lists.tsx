import type * as React from "react";
import { formatDateTimeFr } from "~/lib/format-fr";
import type { ContactMessageRow, UnsubscribeRequestRow } from "~/features/admin/messages/messages-admin.server";
import { MessageStatusBadge, MessageStatusForm } from "./message-status-form";
import type { MessageKind, MessageStatus } from "~/features/admin/messages/message-status";

const SOURCE_LABELS: Record<string, string> = {
  contact: "Page Contact",
  services: "Page Services",
};

function MessageCard({
  kind,
  id,
  status,
  heading,
  details,
  children,
}: {
  kind: MessageKind;
  id: string;
  status: MessageStatus;
  heading: React.ReactNode;
  details: string;
  children?: React.ReactNode;
}) {
  const headingId = `message-${id}`;
  return (
    <li>
      <article aria-labelledby={headingId} className="grid gap-3 rounded-lg border p-4 text-sm">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="grid min-w-0 gap-1">
            <h3 id={headingId} className="font-semibold wrap-anywhere">
              {heading}
            </h3>
            <p className="text-muted-foreground">{details}</p>
          </div>
          <MessageStatusBadge status={status} />
        </div>
        {children}
        <MessageStatusForm kind={kind} id={id} status={status} describedBy={headingId} />
      </article>
    </li>
  );
}

export function ContactMessageList({ messages }: { messages: ContactMessageRow[] }) {
  return (
    <ul className="grid gap-3" aria-label="Messages de contact">
      {messages.map((message) => (
        <MessageCard
          key={message.id}
          kind="contact"
          id={message.id}
          status={message.status}
          heading={`${message.name} · ${message.email}`}
          details={[
            SOURCE_LABELS[message.source] ?? message.source,
            formatDateTimeFr(message.createdAt),
            message.phone ? `Tél. ${message.phone}` : null,
          ]
            .filter(Boolean)
            .join(" · ")}
        >
          {/* Text as typed: React escapes it, and its line breaks are kept. */}
          <p className="whitespace-pre-wrap wrap-anywhere">{message.message}</p>
        </MessageCard>
      ))}
    </ul>
  );
}

function confirmation(request: UnsubscribeRequestRow) {
  if (request.confirmedAt) return `Confirmée le ${formatDateTimeFr(request.confirmedAt)}`;
  return request.expired ? "Lien expiré sans confirmation" : "En attente de confirmation par e-mail";
}

export function UnsubscribeRequestList({ requests }: { requests: UnsubscribeRequestRow[] }) {
  return (
    <ul className="grid gap-3" aria-label="Demandes de désinscription">
      {requests.map((request) => (
        <MessageCard
          key={request.id}
          kind="unsubscribe"
          id={request.id}
          status={request.status}
          heading={request.email}
          details={`Demandée le ${formatDateTimeFr(request.createdAt)} · ${confirmation(request)}`}
        />
      ))}
    </ul>
  );
}
