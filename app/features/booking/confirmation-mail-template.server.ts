import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { orders } from "~/db/schema";
import type { CurrencyCode } from "~/lib/currency";
import type { MailTemplate } from "~/platform/mail/outbox.server";
import { confirmationMail, confirmationSubject } from "./confirmation-mail";
import { voucherQrPng } from "./voucher.server";

/**
 * What the transaction that pays an order records for its confirmation e-mail, as JSON (dates as
 * ISO strings): the contract as it stood at the payment, which the outbox worker composes the mail
 * from (ADR 007, 019). The voucher's check URL is signed during the payment; its QR code is drawn
 * by the worker, and the invoice number, drawn at the payment's commit (ADR 028), read by it.
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
  membership: { trialEndsAt: string; fee: number } | null;
};

/** The booking's confirmation, composed by the outbox worker: the server starts it with this template. */
export const confirmationMailTemplate = {
  name: "booking-confirmation",
  subject: (data: Pick<ConfirmationMailData, "orderNumber">) => confirmationSubject(data.orderNumber),
  async compose({ voucherCheckUrl, paidAt, membership, ...details }: ConfirmationMailData, db: Database) {
    const [order] = await db
      .select({ invoiceNumber: orders.invoiceNumber })
      .from(orders)
      .where(eq(orders.orderNumber, details.orderNumber));
    const { text, html, attachments } = await confirmationMail({
      ...details,
      invoiceNumber: order?.invoiceNumber ?? null,
      voucherQrPng: voucherQrPng(voucherCheckUrl),
      paidAt: new Date(paidAt),
      membership: membership && { trialEndsAt: new Date(membership.trialEndsAt), fee: membership.fee },
    });
    return { text, html, attachments };
  },
} satisfies MailTemplate<ConfirmationMailData>;
