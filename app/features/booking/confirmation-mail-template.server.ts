import type { CurrencyCode } from "~/lib/currency";
import type { MailTemplate } from "~/platform/mail/outbox.server";
import { confirmationMail, confirmationSubject } from "./confirmation-mail";
import { voucherQrPng } from "./voucher.server";

/**
 * What the transaction that pays an order records for its confirmation e-mail, as JSON (dates as
 * ISO strings): the contract as it stood at the payment, which the outbox worker composes the mail
 * from (ADR 007, 019). The voucher's check URL is signed during the payment; its QR code is drawn
 * by the worker.
 */
export type ConfirmationMailData = {
  customerName: string;
  orderNumber: string;
  airport: string | null;
  flightDate: string | null;
  adults: number;
  children: number;
  freeAccesses: number;
  amount: number;
  currency: CurrencyCode;
  voucherShortCode: string;
  voucherCheckUrl: string;
  bookingUrl: string;
  origin: string;
  paidAt: string;
  consent: string | null;
  invoiceNumber: string | null;
  membership: { trialEndsAt: string; fee: number } | null;
};

/** The booking's confirmation, composed by the outbox worker: the server starts it with this template. */
export const confirmationMailTemplate = {
  name: "booking-confirmation",
  subject: (data: Pick<ConfirmationMailData, "orderNumber">) => confirmationSubject(data.orderNumber),
  async compose({ voucherCheckUrl, paidAt, membership, ...details }: ConfirmationMailData) {
    const { text, html, attachments } = await confirmationMail({
      ...details,
      voucherQrPng: voucherQrPng(voucherCheckUrl),
      paidAt: new Date(paidAt),
      membership: membership && { trialEndsAt: new Date(membership.trialEndsAt), fee: membership.fee },
    });
    return { text, html, attachments };
  },
} satisfies MailTemplate<ConfirmationMailData>;
