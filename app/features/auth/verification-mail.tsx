import { MailButton, MailLayout, MailParagraph, renderMail, type MailContent } from "~/platform/mail/layout";
import { siteConfig } from "../../../site.config";

/** How long the confirmation link works: better-auth's default for an e-mail verification token. */
export const VERIFICATION_LINK_HOURS = 1;

export function AddressConfirmation({ confirmUrl }: { confirmUrl: string }) {
  const { company } = siteConfig;
  return (
    <MailLayout preview="Confirm your e-mail address">
      <MailParagraph>Hello,</MailParagraph>
      <MailParagraph>{`An account was created at ${company.name} with this e-mail address. Please confirm that the address is yours with the link below.`}</MailParagraph>
      <MailButton href={confirmUrl}>Confirm my e-mail address</MailButton>
      <MailParagraph>{`The link works for ${VERIFICATION_LINK_HOURS === 1 ? "one hour" : `${VERIFICATION_LINK_HOURS} hours`}.`}</MailParagraph>
      <MailParagraph>
        If you did not create this account, ignore this e-mail: the address stays unconfirmed.
      </MailParagraph>
    </MailLayout>
  );
}

/** The mail with the link that confirms a new account's address (better-auth's e-mail verification). */
export function addressConfirmationMail(confirmUrl: string): Promise<MailContent> {
  return renderMail(
    `${siteConfig.company.name}: confirm your e-mail address`,
    <AddressConfirmation confirmUrl={confirmUrl} />,
  );
}
