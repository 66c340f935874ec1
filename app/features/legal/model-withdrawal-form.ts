import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-status";
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
