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
} from "~/platform/mail/layout";
import type { MailAttachment } from "~/platform/mail/attachment";
import { siteConfig } from "../../../site.config";
import { formatFlightDate } from "./flight-date";
import { flightDayCalendar } from "./flight-day-calendar";
import type { OrderDetails } from "./order-details";
import { describePassengers } from "./passengers";
import { formatAmount } from "~/lib/currency";
import { termsAttachment } from "~/features/legal/terms-attachment.server";
import { WithdrawalMailTerms } from "~/features/legal/withdrawal-mail-terms";
import { formatMemberDay } from "~/features/memberships/membership-mails";
import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-terms";
import { TRIAL_PLAN } from "~/features/memberships/trial-offer";

export const VOUCHER_QR_CID = "voucher-qr";

/** The paid order and its voucher. */
export type ConfirmationMailDetails = Pick<
  OrderDetails,
  "customerName" | "orderNumber" | "airport" | "flightDate" | "adults" | "children" | "amount" | "currency"
> & {
  /** Passengers the member's free accesses covered (ADR 029); 0 for most bookings. */
  freeAccesses?: number;
  /** The code read out at the lane, "K7QM-3XPA-TW". */
  voucherShortCode: string;
  /** The voucher's QR code, PNG bytes in base64. */
  voucherQrPng: string;
  /** The booking's page, absolute. */
  bookingUrl: string;
  /** The site's public origin, for the cancel and withdraw links. */
  origin: string;
  paidAt: Date;
  /** The request to start within the withdrawal period, as the buyer ticked it. */
  consent: string | null;
  /** The order's invoice number (ADR 028). */
  invoiceNumber: string | null;
  /** The membership trial this payment started, if it did, and its fee per period in minor units. */
  membership: { trialEndsAt: Date; fee: number } | null;
};

export function BookingConfirmationMail({ details }: { details: ConfirmationMailDetails }) {
  const brand = siteConfig.company.name;
  const colours = mailColours();
  const rows: [string, string][] = [
    ["Order number", details.orderNumber],
    ["Airport", details.airport ?? "Not specified"],
    ["Flight date", details.flightDate ? formatFlightDate(details.flightDate) : "Not specified"],
    ["Passengers", describePassengers(details)],
    ...(details.freeAccesses
      ? [["Free accesses", `${details.freeAccesses} of your membership's this month`] as [string, string]]
      : []),
    ["Amount paid", formatAmount(details.amount, details.currency)],
    ...(details.invoiceNumber ? [["Invoice number", details.invoiceNumber] as [string, string]] : []),
  ];
  return (
    <MailLayout preview={`Your Fast Track voucher ${details.voucherShortCode} for order ${details.orderNumber}`}>
      <MailHeading>Your Fast Track is booked</MailHeading>
      <MailParagraph>{`Dear ${details.customerName},`}</MailParagraph>
      <MailParagraph>
        {details.amount === 0
          ? `Thank you for booking your Fast Track with ${brand}. Your membership's free accesses cover it: nothing was charged.`
          : `Thank you for booking your Fast Track with ${brand}. Your payment has been received.`}
      </MailParagraph>
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
      <ContractTerms details={details} />
    </MailLayout>
  );
}

/**
 * The contract on a durable medium (CRD Art. 8(7), ADR 019): the membership the payment started
 * with its first charge, how to cancel and withdraw, the consent given, the terms (attached) and the
 * model withdrawal form. Its dates and amounts are those the payment recorded: when it was paid, and
 * the trial's end and fee as the code that starts and charges the trial set them then.
 */
function ContractTerms({ details }: { details: ConfirmationMailDetails }) {
  const { periodMonths, trialDays } = MEMBERSHIP_TERMS;
  const plan = siteConfig.pricing[TRIAL_PLAN].name;
  const membership = details.membership;
  const fee = membership ? formatAmount(membership.fee, details.currency) : null;
  const firstCharge = membership ? formatMemberDay(membership.trialEndsAt) : null;
  return (
    <>
      {membership && firstCharge && fee ? (
        <>
          <MailHeading>Your membership</MailHeading>
          <MailFields
            rows={[
              ["Plan", `${plan}, with a ${trialDays}-day free trial`],
              ["Free until", firstCharge],
              ["First charge", `${fee} on ${firstCharge}, to the card you paid with`],
              ["Then", `${fee} every ${periodMonths} months until you cancel`],
              ["Membership number", details.orderNumber],
            ]}
          />
          <MailParagraph>{`Cancel before ${firstCharge} and you pay nothing for the membership. You can cancel anytime online at ${details.origin}/unsubscribe; no further fee is charged after that.`}</MailParagraph>
        </>
      ) : null}
      <WithdrawalMailTerms origin={details.origin} concludedAt={details.paidAt} consent={details.consent} />
    </>
  );
}

export const confirmationSubject = (orderNumber: string) => `Your Fast Track booking ${orderNumber} is confirmed`;

/** The e-mail sent once a fast track is paid: the booking's details and its voucher. */
export async function confirmationMail(
  details: ConfirmationMailDetails,
): Promise<MailContent & { attachments: MailAttachment[] }> {
  const mail = await renderMail(
    confirmationSubject(details.orderNumber),
    <BookingConfirmationMail details={details} />,
  );
  return {
    ...mail,
    attachments: [
      { filename: "voucher-qr.png", contentType: "image/png", content: details.voucherQrPng, cid: VOUCHER_QR_CID },
      await termsAttachment(details.origin, details.currency),
      ...(details.flightDate
        ? [
            {
              filename: "fast-track.ics",
              contentType: "text/calendar",
              // Stamped with the payment's time: composed again from the same data, the file is the same.
              content: Buffer.from(
                flightDayCalendar({ ...details, flightDate: details.flightDate }, details.paidAt),
              ).toString("base64"),
            },
          ]
        : []),
    ],
  };
}
