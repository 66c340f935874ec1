export const HEADER_LINKS = [
  { to: "/", label: "Home" },
  { to: "/services", label: "Services" },
  { to: "/contact", label: "Contact" },
  { to: "/unsubscribe", label: "Unsubscribe" },
] as const;

/**
 * The site's withdrawal function (CRD Art. 11a): a stable address, linked from the footer, the
 * e-mails and the terms. Here so that the footer may link it; the legal feature re-exports it.
 */
export const WITHDRAW_PATH = "/withdraw";

/** `tel:` wants the number without spaces or punctuation other than a leading +. */
export function telHref(phone: string) {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}

export function memberAreaUrl(domain: string) {
  return `https://${domain}`;
}
