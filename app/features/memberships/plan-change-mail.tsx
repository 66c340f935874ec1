import { formatAmount } from "~/lib/currency";
import { MailFields, MailHeading, MailParagraph } from "~/platform/mail/layout";
import { formatMemberDay, memberMail, type MemberMail, type MembershipMailBasics } from "./membership-mails";
import { MEMBERSHIP_TERMS } from "./membership-terms";

/** What a plan change did, as its e-mail confirms it (ADR 030). */
export type PlanChangeDone =
  | { kind: "trial"; firstCharge: Date }
  | { kind: "upgrade"; charged: number; invoiceNumber: string | null; nextCharge: Date }
  | { kind: "downgrade"; from: Date }
  /** The move to a cheaper plan asked for this quarter is called off: `abandoned` names that plan. */
  | { kind: "kept"; abandoned: string; nextCharge: Date };

/**
 * The confirmation of a plan change: the new plan, its fee, and when it applies; for an upgrade what
 * was charged now. `planName`, `price` are the new plan's; `fromPlanName` the old one's.
 */
export function planChangedMail(
  details: MembershipMailBasics & { fromPlanName: string; freeAccesses: number; change: PlanChangeDone },
): Promise<MemberMail> {
  const fee = `${formatAmount(details.price, details.currency)} every ${MEMBERSHIP_TERMS.periodMonths} months`;
  const { change } = details;
  if (change.kind === "kept") {
    return memberMail(
      details,
      `Your membership stays ${details.planName}`,
      `${change.abandoned} will not start: you keep ${details.planName}`,
      <>
        <MailHeading>{`You keep ${details.planName}`}</MailHeading>
        <MailParagraph>{`The change to ${change.abandoned} you asked for is called off: your plan stays ${details.planName}, with its benefits, after this quarter too.`}</MailParagraph>
        <MailFields
          rows={[
            ["Plan", details.planName],
            [
              "Next fee",
              `${formatAmount(details.price, details.currency)} on ${formatMemberDay(change.nextCharge)}, then every ${MEMBERSHIP_TERMS.periodMonths} months`,
            ],
            ["Free fast-track accesses", `${details.freeAccesses} a month`],
          ]}
        />
      </>,
    );
  }
  if (change.kind === "downgrade") {
    const day = formatMemberDay(change.from);
    return memberMail(
      details,
      `Your membership changes to ${details.planName} on ${day}`,
      `${details.fromPlanName} until ${day}, then ${details.planName}`,
      <>
        <MailHeading>{`Your plan changes on ${day}`}</MailHeading>
        <MailParagraph>{`You keep ${details.fromPlanName} and its benefits until your paid quarter ends on ${day}. From then your plan is ${details.planName}.`}</MailParagraph>
        <MailFields
          rows={[
            ["New plan", details.planName],
            ["From", day],
            ["Fee", fee],
            ["Free fast-track accesses", `${details.freeAccesses} a month`],
          ]}
        />
      </>,
    );
  }
  const rows: [string, string][] = [
    ["Plan", details.planName],
    ["Free fast-track accesses", `${details.freeAccesses} a month, from now`],
  ];
  if (change.kind === "trial") {
    rows.push([
      "First charge",
      `${formatAmount(details.price, details.currency)} on ${formatMemberDay(change.firstCharge)}`,
    ]);
  } else {
    rows.push([
      "Charged now",
      `${formatAmount(change.charged, details.currency)}, the difference for the rest of this quarter`,
    ]);
    if (change.invoiceNumber) rows.push(["Invoice number", change.invoiceNumber]);
    rows.push(["Then", `${fee} from ${formatMemberDay(change.nextCharge)}`]);
  }
  return memberMail(
    details,
    `Your membership is now ${details.planName}`,
    `${details.fromPlanName} is now ${details.planName}`,
    <>
      <MailHeading>{`Welcome to ${details.planName}`}</MailHeading>
      <MailParagraph>{`Your plan changed from ${details.fromPlanName} to ${details.planName} today.`}</MailParagraph>
      <MailFields rows={rows} />
    </>,
  );
}
