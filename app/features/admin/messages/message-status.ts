import { z } from "~/lib/zod";

// What the back office does with contact messages and unsubscribe requests: read them, then mark
// them handled (or back to new). Shared by the page's forms and the action that checks them.

export const MESSAGE_KINDS = ["contact", "unsubscribe"] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export const MESSAGE_STATUSES = ["new", "handled"] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const STATUS_FILTERS = ["all", ...MESSAGE_STATUSES] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];

export interface MessageFilter {
  kind: MessageKind;
  status: StatusFilter;
}

export const MESSAGE_KIND_LABELS: Record<MessageKind, string> = {
  contact: "Messages de contact",
  unsubscribe: "Demandes de désinscription",
};

export const STATUS_FILTER_LABELS: Record<StatusFilter, string> = {
  all: "Tous",
  new: "Nouveaux",
  handled: "Traités",
};

export const MESSAGE_STATUS_LABELS: Record<MessageStatus, string> = {
  new: "Nouveau",
  handled: "Traité",
};

const filterSchema = z.object({
  kind: z.enum(MESSAGE_KINDS).catch("contact"),
  status: z.enum(STATUS_FILTERS).catch("all"),
});

/** The list asked for by `?kind=` and `?status=`; anything unknown falls back to every contact message. */
export function messageFilterFromParams(params: URLSearchParams): MessageFilter {
  return filterSchema.parse({ kind: params.get("kind") ?? undefined, status: params.get("status") ?? undefined });
}

/** The form that marks one message or request handled, or back to new. */
export const messageStatusChangeSchema = z.object({
  kind: z.enum(MESSAGE_KINDS, "Type de message inconnu : rien n'a été modifié."),
  id: z.guid("Identifiant de message invalide : rien n'a été modifié."),
  status: z.enum(MESSAGE_STATUSES, "Statut inconnu, « Nouveau » ou « Traité » attendu : rien n'a été modifié."),
});
export type MessageStatusChange = z.infer<typeof messageStatusChangeSchema>;

/** The toast once a change is made. */
export const STATUS_CHANGED: Record<MessageKind, Record<MessageStatus, string>> = {
  contact: { handled: "Message marqué comme traité", new: "Message remis en nouveau" },
  unsubscribe: { handled: "Demande marquée comme traitée", new: "Demande remise en nouveau" },
};
