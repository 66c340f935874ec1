import { termsAttachment } from "~/features/legal/terms-attachment.server";
import { WithdrawalMailTerms, withdrawalDeadline } from "~/features/legal/withdrawal-mail-terms";
import { formatMemberDay, memberMail, type MembershipMailBasics } from "~/features/memberships/membership-mails";
import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-terms";
import { formatAmount } from "~/lib/currency";
import { MailFields, MailHeading, MailParagraph } from "~/platform/mail/layout";
import type { MailAttachment } from "~/platform/mail/attachment";
import { siteConfig } from "../../../site.config";

export interface ContractMailDetails extends MembershipMailBasics {
  fullName: string;
  planId: keyof typeof siteConfig.pricing;
  startedAt: Date;
  trialEndsAt: Date;
  /** "2915-77F4-830F": what the withdrawal form and the desk ask for, as this membership has no order. */
  membershipNumber: string;
  /** "Visa ending 4242". */
  card: string;
  /** The request to start now, as it was ticked. */
  consent: string;
}

/**
 * The membership checkout's confirmation: the contract on a durable medium (CRD Art. 8(7), ADR 019),
 * as the fast track's confirmation is for a trial its payment starts: the plan and what it gives,
 * the first charge, how to cancel, the right to withdraw with the model form, the terms attached.
 */
export async function membershipContractMail(
  details: ContractMailDetails,
): Promise<Awaited<ReturnType<typeof memberMail>> & { attachments: MailAttachment[] }> {
  const { trialDays, periodMonths } = MEMBERSHIP_TERMS;
  const plan = siteConfig.pricing[details.planId];
  const fee = formatAmount(details.price, details.currency);
  const firstCharge = formatMemberDay(details.trialEndsAt);
  const mail = await memberMail(
    details,
    `Your ${trialDays}-day free trial of ${siteConfig.company.name} ${plan.name} has started`,
    `Free until ${firstCharge}, then ${fee} every ${periodMonths} months`,
    <>
      <MailHeading>Your free trial has started</MailHeading>
      <MailParagraph>{`Thank you, ${details.fullName}. Your ${plan.name} membership starts with a ${trialDays}-day free trial: nothing has been charged.`}</MailParagraph>
      <MailFields
        rows={[
          ["Membership number", details.membershipNumber],
          ["Plan", `${plan.name}, with a ${trialDays}-day free trial`],
          ["Includes", plan.features.join("; ")],
          ["Free until", firstCharge],
          ["First charge", `${fee} on ${firstCharge}, to your ${details.card}`],
          ["Then", `${fee} every ${periodMonths} months until you cancel`],
        ]}
      />
      <MailParagraph>{`We will remind you the day before the first charge. Cancel before ${firstCharge} and you pay nothing. You can cancel anytime online at ${details.origin}/unsubscribe; no further fee is charged after that.`}</MailParagraph>
      <WithdrawalMailTerms
        origin={details.origin}
        withdrawUntil={withdrawalDeadline(details.startedAt)}
        consent={details.consent}
      />
    </>,
  );
  return { ...mail, attachments: [await termsAttachment(details.origin, details.currency)] };
}
