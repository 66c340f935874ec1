import {
  MailFields,
  MailHeading,
  MailInlineImage,
  MailLayout,
  MailParagraph,
  renderMail,
} from "~/features/mail/layout";
import type { OutgoingMail } from "~/features/mail/outbox.server";
import { siteConfig } from "../../../site.config";
import { formatFlightDate } from "./flight-date";
import type { OrderDetails } from "./order-details";
import { describePassengers } from "./passengers";
import { formatAmount } from "./pricing";

export const VOUCHER_QR_CID = "voucher-qr";

/** The paid order, the address to send it to, and its voucher. */
export type ConfirmationMailDetails = Pick<
  OrderDetails,
  "customerName" | "orderNumber" | "airport" | "flightDate" | "adults" | "children" | "amount" | "currency"
> & {
  to: string;
  voucherCode: string;
  /** The voucher's QR code, PNG bytes in base64. */
  voucherQrPng: string;
};

export function BookingConfirmation({ details }: { details: ConfirmationMailDetails }) {
  const brand = siteConfig.company.name;
  const rows: [string, string][] = [
    ["Order number", details.orderNumber],
    ["Airport", details.airport ?? "Not specified"],
    ["Flight date", details.flightDate ? formatFlightDate(details.flightDate) : "Not specified"],
    ["Passengers", describePassengers(details)],
    ["Amount paid", formatAmount(details.amount, details.currency)],
    ["Voucher code", details.voucherCode],
  ];
  return (
    <MailLayout preview={`Your Fast Track booking ${details.orderNumber} is confirmed`}>
      <MailHeading>Your Fast Track is booked</MailHeading>
      <MailParagraph>{`Dear ${details.customerName},`}</MailParagraph>
      <MailParagraph>{`Thank you for booking your Fast Track with ${brand}. Your payment has been received.`}</MailParagraph>
      <MailFields rows={rows} />
      <MailParagraph>
        Show the QR code or the voucher code below at the fast-track lane on the day of your flight.
      </MailParagraph>
      <MailInlineImage cid={VOUCHER_QR_CID} size={240} alt={`Voucher QR code ${details.voucherCode}`} />
    </MailLayout>
  );
}

/** The e-mail sent once a fast track is paid: the booking's details and its voucher. */
export async function confirmationMail(details: ConfirmationMailDetails): Promise<OutgoingMail> {
  const mail = await renderMail(
    `Your Fast Track booking ${details.orderNumber} is confirmed`,
    <BookingConfirmation details={details} />,
  );
  return {
    to: details.to,
    ...mail,
    attachments: [
      { filename: "voucher-qr.png", contentType: "image/png", content: details.voucherQrPng, cid: VOUCHER_QR_CID },
    ],
  };
}
