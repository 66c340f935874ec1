import { siteConfig } from "../../../../site.config";
import { composeMail, type MailContent } from "./layout";

/** The mail carrying the single-use link that confirms an unsubscribe request. */
export function unsubscribeConfirmationMail({
  confirmUrl,
  validForHours,
}: {
  confirmUrl: string;
  validForHours: number;
}): MailContent {
  const { company } = siteConfig;
  return composeMail({
    subject: `${company.name}: confirm your unsubscribe request`,
    blocks: [
      { kind: "paragraph", text: "Hello," },
      {
        kind: "paragraph",
        text: `We received a request to unsubscribe this e-mail address from ${company.name}. Please confirm it with the link below.`,
      },
      { kind: "button", label: "Confirm unsubscribe", href: confirmUrl },
      { kind: "paragraph", text: `The link works once and expires in ${validForHours} hours.` },
      { kind: "paragraph", text: "If you did not ask for this, ignore this e-mail: nothing changes." },
    ],
  });
}

/** Tells the company's inbox that someone confirmed, so the membership is ended and mailings stop. */
export function unsubscribeConfirmedNotificationMail({
  email,
  confirmedAt,
}: {
  email: string;
  confirmedAt: Date;
}): MailContent {
  return composeMail({
    subject: `Unsubscribe confirmed: ${email}`,
    blocks: [
      { kind: "paragraph", text: "A visitor confirmed an unsubscribe request with the link we e-mailed them." },
      {
        kind: "fields",
        rows: [
          ["E-mail", email],
          ["Confirmed at", confirmedAt.toISOString()],
        ],
      },
    ],
  });
}
