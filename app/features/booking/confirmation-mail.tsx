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
import { WithdrawalMailTerms, withdrawalDeadline } from "~/features/legal/withdrawal-mail-terms";
import { renderFilledMail } from "~/platform/mail/filled-mail";
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

/**
 * What differs from one confirmation to the next, as the mail writes it: the mail is rendered once
 * per shape and filled with these (`renderFilledMail`).
 */
type ConfirmationFields = {
  preview: string;
  customerName: string;
  orderNumber: string;
  voucherShortCode: string;
  airport: string;
  flightDate: string;
  passengers: string;
  freeAccesses: string;
  amountPaid: string;
  invoiceNumber: string;
  bookingUrl: string;
  origin: string;
  withdrawUntil: string;
  consent: string;
  fee: string;
  firstCharge: string;
};

/** Which rows and paragraphs a confirmation has: everything of it that is not a field. */
type ConfirmationShape = {
  nothingCharged: boolean;
  freeAccesses: boolean;
  invoiceNumber: boolean;
  flightDate: boolean;
  membership: boolean;
  consent: boolean;
};

function confirmationFields(details: ConfirmationMailDetails): {
  fields: ConfirmationFields;
  shape: ConfirmationShape;
} {
  const { membership } = details;
  return {
    fields: {
      preview: `Your Fast Track voucher ${details.voucherShortCode} for order ${details.orderNumber}`,
      customerName: details.customerName,
      orderNumber: details.orderNumber,
      voucherShortCode: details.voucherShortCode,
      airport: details.airport ?? "Not specified",
      flightDate: details.flightDate ? formatFlightDate(details.flightDate) : "Not specified",
      passengers: describePassengers(details),
      freeAccesses: details.freeAccesses ? `${details.freeAccesses} of your membership's this month` : "",
      amountPaid: formatAmount(details.amount, details.currency),
      invoiceNumber: details.invoiceNumber ?? "",
      bookingUrl: details.bookingUrl,
      origin: details.origin,
      withdrawUntil: withdrawalDeadline(details.paidAt),
      consent: details.consent ?? "",
      fee: membership ? formatAmount(membership.fee, details.currency) : "",
      firstCharge: membership ? formatMemberDay(membership.trialEndsAt) : "",
    },
    shape: {
      nothingCharged: details.amount === 0,
      freeAccesses: Boolean(details.freeAccesses),
      invoiceNumber: details.invoiceNumber !== null,
      flightDate: details.flightDate !== null,
      membership: membership !== null,
      consent: Boolean(details.consent),
    },
  };
}

function BookingConfirmationMail({ fields, shape }: { fields: ConfirmationFields; shape: ConfirmationShape }) {
  const brand = siteConfig.company.name;
  const colours = mailColours();
  const rows: [string, string][] = [
    ["Order number", fields.orderNumber],
    ["Airport", fields.airport],
    ["Flight date", fields.flightDate],
    ["Passengers", fields.passengers],
    ...(shape.freeAccesses ? [["Free accesses", fields.freeAccesses] as [string, string]] : []),
    ["Amount paid", fields.amountPaid],
    ...(shape.invoiceNumber ? [["Invoice number", fields.invoiceNumber] as [string, string]] : []),
  ];
  return (
    <MailLayout preview={fields.preview}>
      <MailHeading>Your Fast Track is booked</MailHeading>
      <MailParagraph>{`Dear ${fields.customerName},`}</MailParagraph>
      <MailParagraph>
        {shape.nothingCharged
          ? `Thank you for booking your Fast Track with ${brand}. Your membership's free accesses cover it: nothing was charged.`
          : `Thank you for booking your Fast Track with ${brand}. Your payment has been received.`}
      </MailParagraph>
      <Section
        style={{ margin: "0 0 24px", padding: "16px", borderRadius: "8px", backgroundColor: colours.brandLight }}
      >
        <MailInlineImage cid={VOUCHER_QR_CID} size={200} alt={`Voucher QR code ${fields.voucherShortCode}`} />
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
          {fields.voucherShortCode}
        </Text>
        <Text style={{ margin: 0, fontSize: "14px", lineHeight: "20px", color: "#374151" }}>
          {`Order number: ${fields.orderNumber}`}
        </Text>
      </Section>
      <MailHeading>At the airport</MailHeading>
      <MailParagraph>
        Go to the fast-track lane with your boarding pass and show this QR code or read out the voucher code.
      </MailParagraph>
      <MailHeading>Your booking</MailHeading>
      <MailFields rows={rows} />
      <MailButton href={fields.bookingUrl}>View your booking</MailButton>
      {shape.flightDate && (
        <MailParagraph>The attached calendar file adds your flight day to your calendar.</MailParagraph>
      )}
      <ContractTerms fields={fields} shape={shape} />
    </MailLayout>
  );
}

/**
 * The contract on a durable medium (CRD Art. 8(7), ADR 019): the membership the payment started
 * with its first charge, how to cancel and withdraw, the consent given, the terms (attached) and the
 * model withdrawal form. Its dates and amounts are those the payment recorded: when it was paid, and
 * the trial's end and fee as the code that starts and charges the trial set them then.
 */
function ContractTerms({ fields, shape }: { fields: ConfirmationFields; shape: ConfirmationShape }) {
  const { periodMonths, trialDays } = MEMBERSHIP_TERMS;
  const plan = siteConfig.pricing[TRIAL_PLAN].name;
  const { fee, firstCharge } = fields;
  return (
    <>
      {shape.membership ? (
        <>
          <MailHeading>Your membership</MailHeading>
          <MailFields
            rows={[
              ["Plan", `${plan}, with a ${trialDays}-day free trial`],
              ["Free until", firstCharge],
              ["First charge", `${fee} on ${firstCharge}, to the card you paid with`],
              ["Then", `${fee} every ${periodMonths} months until you cancel`],
              ["Membership number", fields.orderNumber],
            ]}
          />
          <MailParagraph>{`Cancel before ${firstCharge} and you pay nothing for the membership. You can cancel anytime online at ${fields.origin}/unsubscribe; no further fee is charged after that.`}</MailParagraph>
        </>
      ) : null}
      <WithdrawalMailTerms
        origin={fields.origin}
        withdrawUntil={fields.withdrawUntil}
        consent={shape.consent ? fields.consent : null}
      />
    </>
  );
}

export const confirmationSubject = (orderNumber: string) => `Your Fast Track booking ${orderNumber} is confirmed`;

/** The e-mail sent once a fast track is paid: the booking's details and its voucher. */
export async function confirmationMail(
  details: ConfirmationMailDetails,
  /** How it is rendered: once per shape and filled per order; a test compares it with rendering each. */
  renderer: typeof renderFilledMail = renderFilledMail,
): Promise<MailContent & { attachments: MailAttachment[] }> {
  const subject = confirmationSubject(details.orderNumber);
  const { fields, shape } = confirmationFields(details);
  // The fields its shape leaves out are empty, and not in the mail.
  const used = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== "")) as ConfirmationFields;
  const mail = await renderer(`booking-confirmation:${JSON.stringify(shape)}`, used, (filled) =>
    renderMail(subject, <BookingConfirmationMail fields={filled} shape={shape} />),
  );
  return {
    subject,
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
