import type { CurrencyCode } from "~/lib/currency";
import type { MailTemplate } from "~/platform/mail/outbox.server";
import { trialStartedMail, trialStartedSubject } from "./membership-mails";

/** What starting a trial records for its e-mail, as JSON: the worker composes the mail from it (ADR 007). */
export type TrialStartedMailData = {
  to: string;
  planName: string;
  price: number;
  currency: CurrencyCode;
  origin: string;
  trialEndsAt: string;
};

/** The e-mail that a trial has started, composed by the outbox worker rather than in the payment's transaction. */
export const trialStartedMailTemplate = {
  name: "trial-started",
  subject: (data: Pick<TrialStartedMailData, "planName">) => trialStartedSubject(data.planName),
  async compose({ trialEndsAt, ...details }: TrialStartedMailData) {
    const { text, html } = await trialStartedMail({ ...details, trialEndsAt: new Date(trialEndsAt) });
    return { text, html };
  },
} satisfies MailTemplate<TrialStartedMailData>;
