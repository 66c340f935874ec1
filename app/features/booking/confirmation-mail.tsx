import { Section, Text } from "@react-email/components";
import {
  MailButton,
  MailFields,
  MailHeading,
  MailInlineImage,
  MailLayout,
  MailParagraph,
  mailColours,
  renderMail,
  type MailContent,
} from "~/features/mail/layout";
import type { MailAttachment } from "~/features/mail/attachment";
import type { OutgoingMail } from "~/features/mail/outbox.server";
import { siteConfig } from "../../../site.config";
import { formatFlightDate } from "./flight-date";
import { flightDayCalendar } from "./flight-day-calendar";
import type { OrderDetails } from "./order-details";
import { describePassengers } from "./passengers";
import { formatAmount } from "~/lib/currency";

export const VOUCHER_QR_CID = "voucher-qr";

/** The paid order, the address to send it to, and its voucher. */
export type ConfirmationMailDetails = Pick<
  OrderDetails,
  "customerName" | "orderNumber" | "airport" | "flightDate" | "adults" | "children" | "amount" | "currency"
> & {
  to: string;
  /** The code read out at the lane, "K7QM-3XPA-TW". */
  voucherShortCode: string;
  /** The voucher's QR code, PNG bytes in base64. */
  voucherQrPng: string;
  /** The booking's page, absolute. */
  bookingUrl: string;
};

export function BookingConfirmation({ details }: { details: ConfirmationMailDetails }) {
  const brand = siteConfig.company.name;
  const colours = mailColours();
  const rows: [string, string][] = [
    ["Order number", details.orderNumber],
    ["Airport", details.airport ?? "Not specified"],
    ["Flight date", details.flightDate ? formatFlightDate(details.flightDate) : "Not specified"],
    ["Passengers", describePassengers(details)],
    ["Amount paid", formatAmount(details.amount, details.currency)],
  ];
  return (
    <MailLayout preview={`Your Fast Track voucher ${details.voucherShortCode} for order ${details.orderNumber}`}>
      <MailHeading>Your Fast Track is booked</MailHeading>
      <MailParagraph>{`Dear ${details.customerName},`}</MailParagraph>
      <MailParagraph>{`Thank you for booking your Fast Track with ${brand}. Your payment has been received.`}</MailParagraph>
      <Section
        style={{ margin: "0 0 24px", padding: "16px", borderRadius: "8px", backgroundColor: colours.brandLight }}
      >
        <MailInlineImage cid={VOUCHER_QR_CID} size={200} alt={`Voucher QR code ${details.voucherShortCode}`} />
        <Text style={{ margin: "12px 0 0", fontSize: "14px", lineHeight: "20px", color: "#374151" }}>Voucher code</Text>
        <Text
          style={{
            margin: "0 0 8px",
            fontFamily: "'Courier New', Courier, monospace",
            fontSize: "26px",
            lineHeight: "32px",
            fontWeight: 700,
            letterSpacing: "2px",
            color: colours.brand,
          }}
        >
          {details.voucherShortCode}
        </Text>
        <Text style={{ margin: 0, fontSize: "14px", lineHeight: "20px", color: "#374151" }}>
          {`Order number: ${details.orderNumber}`}
        </Text>
      </Section>
      <MailHeading>At the airport</MailHeading>
      <MailParagraph>
        Go to the fast-track lane with your boarding pass and show this QR code or read out the voucher code.
      </MailParagraph>
      <MailHeading>Your booking</MailHeading>
      <MailFields rows={rows} />
      <MailButton href={details.bookingUrl}>View your booking</MailButton>
      {details.flightDate && (
        <MailParagraph>The attached calendar file adds your flight day to your calendar.</MailParagraph>
      )}
    </MailLayout>
  );
}

/** The e-mail sent once a fast track is paid: the booking's details and its voucher. */
export async function confirmationMail(
  details: ConfirmationMailDetails,
): Promise<OutgoingMail & MailContent & { attachments: MailAttachment[] }> {
  const mail = await renderMail(
    `Your Fast Track booking ${details.orderNumber} is confirmed`,
    <BookingConfirmation details={details} />,
  );
  return {
    to: details.to,
    ...mail,
    attachments: [
      { filename: "voucher-qr.png", contentType: "image/png", content: details.voucherQrPng, cid: VOUCHER_QR_CID },
      ...(details.flightDate
        ? [
            {
              filename: "fast-track.ics",
              contentType: "text/calendar",
              content: Buffer.from(flightDayCalendar({ ...details, flightDate: details.flightDate })).toString(
                "base64",
              ),
            },
          ]
        : []),
    ],
  };
}
