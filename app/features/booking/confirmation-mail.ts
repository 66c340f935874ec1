import type { OutgoingMail } from "~/features/mail/outbox.server";
import { siteConfig } from "../../../site.config";
import { formatFlightDate } from "./flight-date";
import type { OrderDetails } from "./order-details";
import { describePassengers } from "./passengers";
import { formatAmount } from "./pricing";

/** The paid order, the address to send it to, and its voucher. */
export type ConfirmationMailDetails = Pick<
  OrderDetails,
  "customerName" | "orderNumber" | "airport" | "flightDate" | "adults" | "children" | "amount" | "currency"
> & {
  to: string;
  voucherCode: string;
  /** The voucher's QR code as a PNG data URL. */
  voucherQr: string;
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/** The e-mail sent once a fast track is paid: the booking's details and its voucher. */
export function confirmationMail(details: ConfirmationMailDetails): OutgoingMail {
  const brand = siteConfig.company.name;
  const rows: [string, string][] = [
    ["Order number", details.orderNumber],
    ["Airport", details.airport ?? "Not specified"],
    ["Flight date", details.flightDate ? formatFlightDate(details.flightDate) : "Not specified"],
    ["Passengers", describePassengers(details)],
    ["Amount paid", formatAmount(details.amount, details.currency)],
    ["Voucher code", details.voucherCode],
  ];
  const greeting = `Dear ${details.customerName},`;
  const intro = `Thank you for booking your Fast Track with ${brand}. Your payment has been received.`;
  const instructions = "Show the QR code or the voucher code below at the fast-track lane on the day of your flight.";
  const signOff = `${brand} - ${siteConfig.company.email} - ${siteConfig.company.phone}`;

  const text = [
    greeting,
    "",
    intro,
    "",
    ...rows.map(([label, value]) => `${label}: ${value}`),
    "",
    instructions,
    "",
    signOff,
  ].join("\n");

  const html = `<!doctype html>
<html lang="en"><body style="font-family: Arial, sans-serif; color: #1a1a1a; line-height: 1.5">
<p>${escapeHtml(greeting)}</p>
<p>${escapeHtml(intro)}</p>
<table cellpadding="6" style="border-collapse: collapse">
${rows.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`).join("\n")}
</table>
<p>${escapeHtml(instructions)}</p>
<p><img src="${details.voucherQr}" width="240" height="240" alt="Voucher QR code ${escapeHtml(details.voucherCode)}"></p>
<p>${escapeHtml(signOff)}</p>
</body></html>`;

  return { to: details.to, subject: `Your Fast Track booking ${details.orderNumber} is confirmed`, text, html };
}
