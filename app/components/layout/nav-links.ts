export const HEADER_LINKS = [
  { to: "/", label: "Home" },
  { to: "/services", label: "Services" },
  { to: "/contact", label: "Contact" },
  { to: "/unsubscribe", label: "Unsubscribe" },
] as const;

/** `tel:` wants the number without spaces or punctuation other than a leading +. */
export function telHref(phone: string) {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}

export function memberAreaUrl(domain: string) {
  return `https://${domain}`;
}
