import type { MailTemplate } from "~/platform/mail/outbox.server";

/** Every template a feature queues mail with (`enqueueTemplateMail`): the outbox worker composes them. */
export const MAIL_TEMPLATES: MailTemplate<never>[] = [];
