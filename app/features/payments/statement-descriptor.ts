import { siteConfig } from "../../../site.config";

const MAX_LENGTH = 22;
const MIN_LENGTH = 5;

/**
 * What card networks accept as the name on a bank statement, as Stripe states their rules: Latin
 * letters, digits, spaces and `.,-` only (accents dropped, `<>\'"*` and the rest left out), 5 to 22
 * characters with at least one letter, in capitals. Null when nothing usable is left.
 */
export function toStatementDescriptor(name: string): string | null {
  const latin = name.normalize("NFKD").replace(/\p{Mn}/gu, "");
  const kept = latin
    .replace(/[^A-Za-z0-9 .,-]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .toUpperCase();
  const cut = kept.slice(0, MAX_LENGTH).trim();
  return cut.length >= MIN_LENGTH && /[A-Z]/.test(cut) ? cut : null;
}

/**
 * The name our charges carry on the card holder's bank statement: the brand, or, for a brand too short
 * for the networks, the company's legal name. Shown on the payment pages and in the terms; to be set as
 * the Stripe account's statement descriptor (docs/payments-and-memberships.md).
 */
export const STATEMENT_DESCRIPTOR =
  toStatementDescriptor(siteConfig.company.name) ??
  toStatementDescriptor(siteConfig.company.legalName) ??
  "CARD PAYMENT";
