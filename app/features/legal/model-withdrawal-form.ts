import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-terms";
import { addCompanyDays, companyDay, startOfCompanyDay } from "~/lib/company-time";
import { siteConfig } from "../../../site.config";

/**
 * The model withdrawal form of Annex I(B) to Directive 2011/83/EU, filled in with the company's
 * details: the terms page shows it and the confirmation e-mail carries it, from this one text.
 */
export function modelWithdrawalForm() {
  const { company } = siteConfig;
  return {
    title: "Model withdrawal form",
    instruction: `Complete and return this form only if you wish to withdraw from the contract, within ${MEMBERSHIP_TERMS.changeOfMindDays} days. You can also use our online withdrawal function.`,
    to: `To: ${company.legalName}, ${company.address}, ${company.email}`,
    notice: `I/We (*) hereby give notice that I/We (*) withdraw from my/our (*) contract for the provision of the following service (*): ${company.name} membership / fast-track booking (*)`,
    blanks: [
      "Order or membership number:",
      "Ordered on (*) / received on (*):",
      "Name of consumer(s):",
      "Address of consumer(s):",
      "E-mail address used for the order:",
      "Signature of consumer(s) (only if this form is notified on paper):",
      "Date:",
    ],
    footnote: "(*) Delete as appropriate.",
  };
}

/** The site's withdrawal function (Art. 11a): a stable address, linked from the footer, the e-mails and the terms. */
export { WITHDRAW_PATH } from "~/components/layout/nav-links";

/**
 * When the withdrawal period of a contract confirmed at `confirmedAt` ends: at the end of its last
 * day in Amsterdam, `changeOfMindDays` days after the day of the confirmation e-mail (a period in
 * days runs to the end of its last day). The e-mail names that last day; /withdraw takes
 * statements until then.
 */
export function withdrawalPeriodEnd(confirmedAt: Date): Date {
  return startOfCompanyDay(addCompanyDays(companyDay(confirmedAt), MEMBERSHIP_TERMS.changeOfMindDays + 1));
}

/** The last day of that period, for the texts that name it. */
export function lastDayToWithdraw(confirmedAt: Date): Date {
  return new Date(withdrawalPeriodEnd(confirmedAt).getTime() - 1);
}
