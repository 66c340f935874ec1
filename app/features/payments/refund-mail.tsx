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
import { formatAmount, type CurrencyCode } from "~/lib/currency";
import { siteConfig } from "../../../site.config";
import { REFUND_WITHIN_DAYS } from "./refund";

export interface RefundMailDetails {
  to: string;
  /** Minor units of `currency`. */
  amount: number;
  currency: CurrencyCode;
  /** What was paid for: "Fast Track order FT-…", "Medium membership, 27 November 2026 to 27 February 2027". */
  paidFor: string;
  cardBrand: string;
  cardLast4: string;
  /** The button to the customer's account: "Manage your membership" for a fee. */
  account: { label: string; href: string };
}

/** Tells the customer that money is on its way back, how much, for what and to which card. */
export function refundIssuedMail(details: RefundMailDetails): Promise<OutgoingMail & MailContent> {
  const amount = formatAmount(details.amount, details.currency);
  return renderMail(
    `${siteConfig.company.name}: we refunded ${amount}`,
    <MailLayout preview={`${amount} is on its way back to your card`}>
      <MailHeading>Your refund is on its way</MailHeading>
      <MailParagraph>{`We refunded ${amount} to your ${details.cardBrand} card ending ${details.cardLast4}.`}</MailParagraph>
      <MailFields
        rows={[
          ["Amount", amount],
          ["For", details.paidFor],
          ["Card", `${details.cardBrand} ending ${details.cardLast4}`],
        ]}
      />
      <MailParagraph>{`Banks usually show a refund within a few days, and at the latest within ${REFUND_WITHIN_DAYS} days.`}</MailParagraph>
      <MailButton href={details.account.href}>{details.account.label}</MailButton>
    </MailLayout>,
  ).then((content) => ({ to: details.to, ...content }));
}
