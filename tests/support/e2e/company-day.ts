/**
 * A day in Amsterdam as the site writes it: "27 November 2026" in English (the member's pages and
 * e-mails), "27/11/2026" in French (the back office).
 */
export function companyDay(date: Date, locale: "en-GB" | "fr-FR" = "en-GB") {
  return new Intl.DateTimeFormat(locale, {
    timeZone: "Europe/Amsterdam",
    day: locale === "fr-FR" ? "2-digit" : "numeric",
    month: locale === "fr-FR" ? "2-digit" : "long",
    year: "numeric",
  }).format(date);
}
