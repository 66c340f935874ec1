import { MailHeading, MailParagraph, MailQuote } from "~/platform/mail/layout";
import { formatMemberDay } from "~/features/memberships/membership-mails";
import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-terms";
import { siteConfig } from "../../../site.config";
import { lastDayToWithdraw, modelWithdrawalForm, WITHDRAW_PATH } from "./model-withdrawal-form";

/** The last day to withdraw from a contract concluded at `concludedAt`, as its e-mail gives it. */
export const withdrawalDeadline = (concludedAt: Date) => formatMemberDay(lastDayToWithdraw(concludedAt));

/**
 * The part of a contract's e-mail that the law asks for on a durable medium (CRD Art. 8(7), ADR
 * 019): the right to withdraw until when and how, the request to start at once as it was given,
 * that the terms are attached, and the model withdrawal form.
 */
export function WithdrawalMailTerms({
  origin,
  withdrawUntil,
  consent,
}: {
  origin: string;
  /** The last day to withdraw, as `withdrawalDeadline` writes it. */
  withdrawUntil: string;
  consent: string | null;
}) {
  const form = modelWithdrawalForm();
  return (
    <>
      <MailHeading>Your right to withdraw</MailHeading>
      <MailParagraph>{`You can withdraw from this contract within ${MEMBERSHIP_TERMS.changeOfMindDays} days of this e-mail (until ${withdrawUntil}) without giving a reason: use our withdrawal function at ${origin}${WITHDRAW_PATH}, send us the form below, or e-mail ${siteConfig.company.email}.`}</MailParagraph>
      {consent ? (
        <>
          <MailParagraph>You asked us to start at once, in these words:</MailParagraph>
          <MailQuote>{consent}</MailQuote>
        </>
      ) : null}
      <MailParagraph>Our Terms and Conditions and Subscription Terms are attached to this e-mail.</MailParagraph>
      <MailHeading>{form.title}</MailHeading>
      <MailQuote>{[form.instruction, form.to, form.notice, ...form.blanks, form.footnote].join("\n")}</MailQuote>
    </>
  );
}
