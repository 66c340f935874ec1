import {
  MailButton,
  MailFields,
  MailHeading,
  MailLayout,
  MailParagraph,
  renderMail,
  type MailContent,
} from "~/platform/mail/layout";
import type { OutgoingMail } from "~/platform/mail/outbox.server";
import { formatMemberDay } from "~/features/memberships/membership-mails";
import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-terms";
import { formatAmount, type CurrencyCode } from "~/lib/currency";
import { siteConfig } from "../../../site.config";
import { receiptTime } from "./receipt-time";

/** One refund a withdrawal made: what for, and how much in minor units. */
export interface WithdrawalRefundLine {
  paidFor: string;
  amount: number;
  currency: CurrencyCode;
}

/** What a matched withdrawal did, for its acknowledgement. */
export type WithdrawalResult =
  | {
      outcome: "withdrawn";
      /** When the membership the order started ended, if it was still running. */
      membershipEndedAt: Date | null;
      refunds: WithdrawalRefundLine[];
      /** The flight day had come: the fast track was provided and is not refunded. */
      fastTrackProvided: boolean;
      /** A refund could not be made yet: it follows. */
      refundsPending: boolean;
    }
  /** The withdrawal period's last day, past when the statement came. */
  | { outcome: "late"; lastDay: Date };

interface AcknowledgementDetails {
  to: string;
  name: string;
  contractNumber: string;
  receivedAt: Date;
  /** The site's public origin, for the links. */
  origin: string;
  result: WithdrawalResult;
}

function contactLine() {
  const { email, phone } = siteConfig.company;
  return `Questions? Contact our customer service at ${email} or ${phone}.`;
}

function WhatHappened({ result, origin }: { result: WithdrawalResult; origin: string }) {
  if (result.outcome === "late") {
    return (
      <>
        <MailParagraph>{`The withdrawal period for this contract ended on ${formatMemberDay(result.lastDay)}, so this withdrawal could not be applied and nothing has changed.`}</MailParagraph>
        <MailParagraph>You can still cancel your membership at any time, online:</MailParagraph>
        <MailButton href={new URL("/unsubscribe", origin).toString()}>Cancel my membership</MailButton>
      </>
    );
  }
  const refunded = result.refunds.map(
    ({ paidFor, amount, currency }) => [paidFor, formatAmount(amount, currency)] as [string, string],
  );
  return (
    <>
      <MailParagraph>You have withdrawn from your contract.</MailParagraph>
      {result.membershipEndedAt ? (
        <MailParagraph>{`Your membership ended on ${formatMemberDay(result.membershipEndedAt)}. Nothing more will be charged.`}</MailParagraph>
      ) : null}
      {result.fastTrackProvided ? (
        <MailParagraph>
          Your fast track's flight day had come, so the service was provided at your request and its price is not
          refunded.
        </MailParagraph>
      ) : null}
      {refunded.length > 0 ? (
        <>
          <MailParagraph>{`We are refunding the following to the card you paid with:`}</MailParagraph>
          <MailFields rows={refunded} />
        </>
      ) : result.refundsPending ? null : (
        <MailParagraph>Nothing was charged that is to be refunded.</MailParagraph>
      )}
      {result.refundsPending ? (
        <MailParagraph>{`We could not make ${refunded.length > 0 ? "every" : "your"} refund at once. What is due will reach the card you paid with within ${MEMBERSHIP_TERMS.refundWithinDays} days, and we will e-mail you when it is done.`}</MailParagraph>
      ) : null}
    </>
  );
}

/**
 * The acknowledgement on a durable medium (CRD Art. 11a(3)): when the withdrawal was received, the
 * details given, and what it did. Sent only to the address of a matched contract.
 */
export function withdrawalAcknowledgementMail(details: AcknowledgementDetails): Promise<OutgoingMail & MailContent> {
  const { day, time } = receiptTime(details.receivedAt);
  return renderMail(
    `${siteConfig.company.name}: we received your withdrawal`,
    <MailLayout preview={`Received on ${day} at ${time} (Amsterdam time)`}>
      <MailHeading>We received your withdrawal</MailHeading>
      <MailParagraph>{`We received your withdrawal from the contract on ${day} at ${time} (Amsterdam time).`}</MailParagraph>
      <MailFields
        rows={[
          ["Received", `${day} at ${time} (Amsterdam time)`],
          ["Name given", details.name],
          ["Order or membership number", details.contractNumber],
        ]}
      />
      <WhatHappened result={details.result} origin={details.origin} />
      <MailParagraph>{contactLine()}</MailParagraph>
    </MailLayout>,
  ).then((content) => ({ to: details.to, ...content }));
}
