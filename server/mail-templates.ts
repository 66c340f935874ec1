import { confirmationMailTemplate } from "~/features/booking/confirmation-mail-template.server";
import { trialStartedMailTemplate } from "~/features/memberships/trial-started-mail-template.server";

/** Every template a feature queues mail with (`enqueueTemplateMail`): the outbox worker composes them. */
export const MAIL_TEMPLATES = [confirmationMailTemplate, trialStartedMailTemplate];
