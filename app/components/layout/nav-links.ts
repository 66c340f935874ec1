/**
 * The site's withdrawal function (CRD Art. 11a): a stable address, linked from the footer, the
 * e-mails and the terms. Here so that the footer may link it; the legal feature re-exports it.
 */
/** The member area (ADR 027), and its sign-in, where /account sends anyone not signed in. */
export const ACCOUNT_PATH = "/account";
export const ACCOUNT_SIGN_IN_PATH = "/account/sign-in";

export const WITHDRAW_PATH = "/withdraw";

export type NavLink = { to: string; label: string };

const HOME: NavLink = { to: "/", label: "Home" };
const SERVICES: NavLink = { to: "/services", label: "Services" };
const CONTACT: NavLink = { to: "/contact", label: "Contact" };

/** The header's links; the mobile menu repeats them. */
export const HEADER_LINKS: readonly NavLink[] = [HOME, SERVICES, CONTACT, { to: "/unsubscribe", label: "Unsubscribe" }];

/** The footer's link columns, each a titled list. */
export const FOOTER_COLUMNS: readonly { title: string; links: readonly NavLink[] }[] = [
  { title: "Company", links: [HOME, SERVICES, CONTACT, { to: "/faq", label: "FAQ" }] },
  {
    title: "Services",
    links: [
      { to: "/services#subscription", label: "Membership" },
      { to: "/services#fast-track", label: "Fast Track" },
      { to: "/services#checkin", label: "Automated Check-In" },
      { to: "/services#concierge", label: "Concierge" },
    ],
  },
  {
    title: "Legal",
    links: [
      { to: "/terms", label: "Terms and Conditions" },
      { to: "/subscription-terms", label: "Subscription Terms" },
      { to: "/privacy", label: "Privacy Policy" },
      // The withdrawal function (CRD Art. 11a), labelled with the directive's words, on every page.
      { to: WITHDRAW_PATH, label: "Withdraw from contract here" },
      { to: "/unsubscribe", label: "Cancel membership" },
    ],
  },
];

/** `tel:` wants the number without spaces or punctuation other than a leading +. */
export function telHref(phone: string) {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}

/** Where "Login" and the pages' "member area" links go: a separate member site, or this site's own. */
export function memberAreaUrl(domain: string | null) {
  return domain ? `https://${domain}` : ACCOUNT_PATH;
}
