import {
  MailButton,
  MailFields,
  MailHeading,
  MailLayout,
  MailParagraph,
  renderMail,
  type MailContent,
} from "~/platform/mail/layout";
import type { ReactNode } from "react";
import { renderFilledMail } from "~/platform/mail/filled-mail";
import type { OutgoingMail } from "~/platform/mail/outbox.server";
import { COMPANY_TIME_ZONE } from "~/lib/company-time";
import { formatAmount, type CurrencyCode } from "~/lib/currency";
import { siteConfig } from "../../../site.config";
import { manageMembershipLink } from "~/features/auth/sign-in-link.server";
import { MEMBERSHIP_TERMS, noticeWording } from "./membership-terms";

const dayFormat = new Intl.DateTimeFormat("en-GB", {
  timeZone: COMPANY_TIME_ZONE,
  day: "numeric",
  month: "long",
  year: "numeric",
});

/** "27 November 2026", the day in Amsterdam, as the member's e-mails give dates. */
export function formatMemberDay(date: Date): string {
  return dayFormat.format(date);
}

/** What every membership e-mail knows: whom it goes to and the membership's plan and fee. */
export interface MembershipMailBasics {
  to: string;
  planName: string;
  /** The fee per quarter, minor units of `currency`. */
  price: number;
  currency: CurrencyCode;
  /** The site's public origin, for the links. */
  origin: string;
}

const brand = () => siteConfig.company.name;
const fee = ({ price, currency }: MembershipMailBasics) => formatAmount(price, currency);
const cancelUrl = (origin: string) => new URL("/unsubscribe", origin).toString();

function CancelHint({ href }: { href: string }) {
  return (
    <>
      <MailParagraph>
        You can cancel at any time, online, in a minute: ask for a cancellation link with your e-mail address.
      </MailParagraph>
      <MailButton href={href}>Cancel my membership</MailButton>
    </>
  );
}

/** A member's e-mail: whom it goes to, with both its HTML and its plain text. */
export type MemberMail = OutgoingMail & MailContent;

/** A member's e-mail's frame: every one ends with the way into their account, signed in with a code (ADR 027). */
function MemberMailLayout({
  preview,
  manageUrl,
  children,
}: {
  preview: string;
  manageUrl: string;
  children: ReactNode;
}) {
  return (
    <MailLayout preview={preview}>
      {children}
      <MailButton href={manageUrl}>Manage your membership</MailButton>
    </MailLayout>
  );
}

export async function memberMail(
  details: MembershipMailBasics,
  subject: string,
  preview: string,
  body: ReactNode,
): Promise<MemberMail> {
  return {
    to: details.to,
    ...(await renderMail(
      subject,
      <MemberMailLayout preview={preview} manageUrl={manageMembershipLink(details.origin, details.to)}>
        {body}
      </MemberMailLayout>,
    )),
  };
}

export const trialStartedSubject = (planName: string) =>
  `Your ${MEMBERSHIP_TERMS.trialDays}-day free trial of ${brand()} ${planName} has started`;

/**
 * Sent when a trial starts, which a payment does for every new member: rendered once and filled for
 * each (`renderFilledMail`), as the booking's confirmation is.
 */
export async function trialStartedMail(
  details: MembershipMailBasics & { trialEndsAt: Date },
  renderer: typeof renderFilledMail = renderFilledMail,
): Promise<MemberMail> {
  const { trialDays, periodMonths } = MEMBERSHIP_TERMS;
  const subject = trialStartedSubject(details.planName);
  const firstCharge = formatMemberDay(details.trialEndsAt);
  const fields = {
    preview: `Free until ${firstCharge}, then ${fee(details)} every quarter`,
    planName: details.planName,
    firstCharge,
    fee: fee(details),
    cancelUrl: cancelUrl(details.origin),
    manageUrl: manageMembershipLink(details.origin, details.to),
  };
  const mail = await renderer("trial-started", fields, (filled) =>
    renderMail(
      subject,
      <MemberMailLayout preview={filled.preview} manageUrl={filled.manageUrl}>
        <MailHeading>Your free trial has started</MailHeading>
        <MailParagraph>{`Your Fast Track purchase includes a ${trialDays}-day free trial of the ${filled.planName} membership.`}</MailParagraph>
        <MailFields
          rows={[
            ["Plan", filled.planName],
            ["Free until", filled.firstCharge],
            ["Then", `${filled.fee} every ${periodMonths} months`],
            ["First charge", `${filled.fee} on ${filled.firstCharge}, to the card you paid with`],
          ]}
        />
        <MailParagraph>{`We will remind you the day before the first charge. Cancel before ${filled.firstCharge} and you pay nothing.`}</MailParagraph>
        <CancelHint href={filled.cancelUrl} />
      </MemberMailLayout>,
    ),
  );
  return { to: details.to, subject, ...mail };
}

export function firstChargeComingMail(
  details: MembershipMailBasics & { chargeOn: Date; cardBrand: string; cardLast4: string },
): Promise<MemberMail> {
  const day = formatMemberDay(details.chargeOn);
  return memberMail(
    details,
    `Your free trial ends on ${day}: first charge of ${fee(details)}`,
    `Your ${brand()} trial ends on ${day}`,
    <>
      <MailHeading>Your free trial ends soon</MailHeading>
      <MailParagraph>{`On ${day} your trial ends and we charge the first quarterly fee of your ${details.planName} membership.`}</MailParagraph>
      <MailFields
        rows={[
          ["Amount", fee(details)],
          ["Charged on", day],
          ["Card", `${details.cardBrand} ending ${details.cardLast4}`],
        ]}
      />
      <MailParagraph>If you want to keep your membership, there is nothing to do.</MailParagraph>
      <CancelHint href={cancelUrl(details.origin)} />
    </>,
  );
}

export function receiptMail(
  details: MembershipMailBasics & {
    amount: number;
    paidAt: Date;
    periodStart: Date;
    periodEnd: Date;
    cardBrand: string;
    cardLast4: string;
    /** Its number in the invoice series (ADR 028). */
    invoiceNumber: string;
  },
): Promise<MemberMail> {
  const amount = formatAmount(details.amount, details.currency);
  return memberMail(
    details,
    `Receipt: ${amount} for your ${brand()} ${details.planName} membership`,
    `We received ${amount}`,
    <>
      <MailHeading>Payment received</MailHeading>
      <MailParagraph>{`Thank you. We charged ${amount} for your ${details.planName} membership.`}</MailParagraph>
      <MailFields
        rows={[
          ["Amount", amount],
          ["Paid on", formatMemberDay(details.paidAt)],
          ["Period", `${formatMemberDay(details.periodStart)} to ${formatMemberDay(details.periodEnd)}`],
          ["Card", `${details.cardBrand} ending ${details.cardLast4}`],
          ["Invoice number", details.invoiceNumber],
        ]}
      />
      <MailParagraph>{`Your next fee of ${fee(details)} is due on ${formatMemberDay(details.periodEnd)}.`}</MailParagraph>
      <CancelHint href={cancelUrl(details.origin)} />
    </>,
  );
}

export function paymentFailedMail(
  details: MembershipMailBasics & { amount: number; endsOn: Date; cardBrand: string; cardLast4: string },
): Promise<MemberMail> {
  const amount = formatAmount(details.amount, details.currency);
  const endsOn = formatMemberDay(details.endsOn);
  return memberMail(
    details,
    `Payment reminder: we could not charge ${amount} for your ${brand()} membership`,
    `Please pay before ${endsOn} to keep your membership`,
    <>
      <MailHeading>Your payment did not go through</MailHeading>
      <MailParagraph>{`We tried to charge ${amount} to your ${details.cardBrand} card ending ${details.cardLast4} for your ${details.planName} membership, and the bank declined it.`}</MailParagraph>
      <MailParagraph>{`What to do: open your account with the "Manage your membership" link below, where you can replace the card and pay the fee at once. Or make sure the card has funds and is not blocked for online payments: we try it again every ${MEMBERSHIP_TERMS.retryEveryDays} days. Questions? Write to ${siteConfig.company.email} or call ${siteConfig.company.phone}.`}</MailParagraph>
      <MailFields
        rows={[
          ["Amount due", amount],
          ["Membership ends if unpaid on", endsOn],
        ]}
      />
      <MailParagraph>{`This is your payment reminder: if the fee is still unpaid on ${endsOn}, ${MEMBERSHIP_TERMS.reminderGraceDays} days from today, your membership ends and nothing more is charged.`}</MailParagraph>
    </>,
  );
}

/**
 * A fee the bank wants its card holder to confirm (3-D Secure, asked for under the EU's strong
 * customer authentication): nothing was declined, but only the member can let it through.
 */
export function paymentConfirmationMail(
  details: MembershipMailBasics & { amount: number; endsOn: Date; cardBrand: string; cardLast4: string },
): Promise<MemberMail> {
  const amount = formatAmount(details.amount, details.currency);
  const endsOn = formatMemberDay(details.endsOn);
  return memberMail(
    details,
    `Confirm your payment of ${amount} for your ${brand()} membership`,
    `Your bank asks you to confirm this payment before ${endsOn}`,
    <>
      <MailHeading>Confirm your payment</MailHeading>
      <MailParagraph>{`Your bank asks you to confirm the payment of ${amount} for your ${details.planName} membership with your ${details.cardBrand} card ending ${details.cardLast4}, as it does for some online payments. Nothing has been charged yet.`}</MailParagraph>
      <MailParagraph>{`What to do: open your account with the "Manage your membership" link below and confirm the payment there, in your banking app or with the code your bank sends you. You can pay with another card there too. Questions? Write to ${siteConfig.company.email} or call ${siteConfig.company.phone}.`}</MailParagraph>
      <MailFields
        rows={[
          ["Amount due", amount],
          ["Membership ends if unconfirmed on", endsOn],
        ]}
      />
      <MailParagraph>{`If the payment is still unconfirmed on ${endsOn}, ${MEMBERSHIP_TERMS.reminderGraceDays} days from today, your membership ends and nothing more is charged.`}</MailParagraph>
    </>,
  );
}

export function membershipCancelledMail(
  details: MembershipMailBasics & {
    accessUntil: Date;
    neverCharged: boolean;
    /** Refunded of the quarter's fee, in minor units, when one month's notice ended it early; 0 for nothing. */
    refunded?: number;
  },
): Promise<MemberMail> {
  const until = formatMemberDay(details.accessUntil);
  const refunded = details.refunded ? formatAmount(details.refunded, details.currency) : undefined;
  return memberMail(
    details,
    `Your ${brand()} membership is cancelled`,
    `You keep your benefits until ${until}`,
    <>
      <MailHeading>Your membership is cancelled</MailHeading>
      <MailParagraph>{`We have cancelled your ${details.planName} membership. You keep its benefits until ${until}.`}</MailParagraph>
      <MailParagraph>
        {details.neverCharged
          ? "It ends within the free trial: you are not charged anything."
          : "No further fee will be charged."}
      </MailParagraph>
      {refunded ? (
        <MailParagraph>{`With ${noticeWording(MEMBERSHIP_TERMS.noticeMonths)}, your membership ends before the quarter you paid for: we refund ${refunded}, the part of its fee after ${until}.`}</MailParagraph>
      ) : null}
      <MailFields
        rows={[
          ["Plan", details.planName],
          ["Access until", until],
          ...(refunded ? [["Refunded", refunded] as [string, string]] : []),
        ]}
      />
    </>,
  );
}

/** The end of a membership whose fee stayed unpaid through the grace after the payment reminder. */
export function membershipEndedMail(
  details: MembershipMailBasics & { amount: number; endedOn: Date },
): Promise<MemberMail> {
  const amount = formatAmount(details.amount, details.currency);
  const endedOn = formatMemberDay(details.endedOn);
  return memberMail(
    details,
    `Your ${brand()} membership has ended`,
    `Your membership ended on ${endedOn}: nothing more will be charged`,
    <>
      <MailHeading>Your membership has ended</MailHeading>
      <MailParagraph>{`We could not collect the fee of ${amount} for your ${details.planName} membership within ${MEMBERSHIP_TERMS.reminderGraceDays} days of our payment reminder, so your membership ended on ${endedOn}.`}</MailParagraph>
      <MailParagraph>{`Nothing more will be charged, and you owe us nothing for it. If you think this is a mistake, write to ${siteConfig.company.email} or call ${siteConfig.company.phone}.`}</MailParagraph>
      <MailFields
        rows={[
          ["Plan", details.planName],
          ["Unpaid fee", amount],
          ["Ended on", endedOn],
        ]}
      />
    </>,
  );
}
