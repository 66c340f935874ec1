import {
  MailButton,
  MailFields,
  MailLayout,
  MailParagraph,
  renderMail,
  type MailContent,
} from "~/platform/mail/layout";
import { siteConfig } from "../../../site.config";

export interface ConfirmCancellationDetails {
  confirmUrl: string;
  validForHours: number;
}

export function ConfirmCancellation({ confirmUrl, validForHours }: ConfirmCancellationDetails) {
  const { company } = siteConfig;
  return (
    <MailLayout preview="Confirm your unsubscribe request">
      <MailParagraph>Hello,</MailParagraph>
      <MailParagraph>{`We received a request to unsubscribe this e-mail address from ${company.name}. Please confirm it with the link below.`}</MailParagraph>
      <MailButton href={confirmUrl}>Confirm unsubscribe</MailButton>
      <MailParagraph>{`The link works once and expires in ${validForHours} hours.`}</MailParagraph>
      <MailParagraph>If you did not ask for this, ignore this e-mail: nothing changes.</MailParagraph>
    </MailLayout>
  );
}

/** The mail carrying the single-use link that confirms an unsubscribe request. */
export function confirmCancellationMail(details: ConfirmCancellationDetails): Promise<MailContent> {
  return renderMail(
    `${siteConfig.company.name}: confirm your unsubscribe request`,
    <ConfirmCancellation {...details} />,
  );
}

export function CancellationConfirmedNotice({ email, confirmedAt }: { email: string; confirmedAt: Date }) {
  return (
    <MailLayout preview={`Unsubscribe confirmed: ${email}`}>
      <MailParagraph>A visitor confirmed an unsubscribe request with the link we e-mailed them.</MailParagraph>
      <MailParagraph>
        If the address has a membership, it is already cancelled for the end of its paid period (at once if a fee was
        unpaid), and the member has an e-mail saying until when.
      </MailParagraph>
      <MailFields
        rows={[
          ["E-mail", email],
          ["Confirmed at", confirmedAt.toISOString()],
        ]}
      />
    </MailLayout>
  );
}

/** Tells the company's inbox that someone confirmed; a membership of the address is cancelled already. */
export function cancellationConfirmedNoticeMail(details: { email: string; confirmedAt: Date }): Promise<MailContent> {
  return renderMail(`Unsubscribe confirmed: ${details.email}`, <CancellationConfirmedNotice {...details} />);
}
