import {
  MailButton,
  MailHeading,
  MailLayout,
  MailParagraph,
  renderMail,
  type MailContent,
} from "~/platform/mail/layout";
import { siteConfig } from "../../../site.config";
import { signInLink } from "./sign-in-link.server";
import { SIGN_IN_CODE_RULES } from "./sign-in-code-rules";

/** The code that signs a person in to the member area, and a link that carries it. */
export function signInCodeMail({
  email,
  code,
  origin,
}: {
  email: string;
  code: string;
  origin: string;
}): Promise<MailContent> {
  const { company } = siteConfig;
  return renderMail(
    // Not the code: subjects reach the logs, and lock screens.
    `Your ${company.name} sign-in code`,
    <MailLayout preview={`Your sign-in code works for ${SIGN_IN_CODE_RULES.minutes} minutes`}>
      <MailHeading>Your sign-in code</MailHeading>
      <MailParagraph>{`Enter this code on the sign-in page of ${company.name} to open your account:`}</MailParagraph>
      <MailHeading>{code}</MailHeading>
      <MailParagraph>Or open the link below and press "Sign in".</MailParagraph>
      <MailButton href={signInLink(origin, email, code)}>Sign in to my account</MailButton>
      <MailParagraph>{`The code and the link work once, for ${SIGN_IN_CODE_RULES.minutes} minutes.`}</MailParagraph>
      <MailParagraph>
        If you did not ask to sign in, ignore this e-mail: without the code nobody can open your account.
      </MailParagraph>
    </MailLayout>,
  );
}
