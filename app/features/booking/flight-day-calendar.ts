import { siteConfig } from "../../../site.config";

/** The page that shows a booking, paid or not, with its voucher once paid. */
export function bookingPageUrl(origin: string, orderId: string): string {
  return new URL(`/fast-track-payment/${orderId}`, origin).toString();
}

export interface FlightDayEvent {
  orderNumber: string;
  /** "YYYY-MM-DD". */
  flightDate: string;
  airport: string | null;
  voucherShortCode: string;
  bookingUrl: string;
}

/** RFC 5545 TEXT: backslash, semicolon, comma and line breaks escaped. */
function escapeText(value: string): string {
  return value.replace(/[\\;,]/g, (character) => `\\${character}`).replace(/\r?\n/g, "\\n");
}

/** Folds a content line at 75 octets (RFC 5545 3.1), never inside a UTF-8 character. */
function fold(line: string): string {
  const parts: string[] = [];
  let current = "";
  let octets = 0;
  for (const character of line) {
    const size = Buffer.byteLength(character);
    // Continuation lines start with a space, which counts towards their 75 octets.
    if (octets + size > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = "";
      octets = 0;
    }
    current += character;
    octets += size;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

const compactDate = (isoDate: string) => isoDate.replaceAll("-", "");

function nextDay(isoDate: string): string {
  const day = new Date(`${isoDate}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 1);
  return day.toISOString().slice(0, 10);
}

/** The flight day as an all-day event, for the confirmation's .ics attachment. */
export function flightDayCalendar(event: FlightDayEvent, now: Date = new Date()): string {
  const { company, domains } = siteConfig;
  const airport = event.airport ?? "the airport";
  const description = [
    `Booking ${event.orderNumber}, voucher code ${event.voucherShortCode}.`,
    "At the airport, go to the fast-track lane with your boarding pass and show the voucher code or the QR code from your confirmation e-mail.",
    `Your booking: ${event.bookingUrl}`,
  ].join("\n");
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    `PRODID:-//${escapeText(company.name)}//Fast Track//EN`,
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    "BEGIN:VEVENT",
    `UID:${event.orderNumber}@${domains.fastTrack}`,
    `DTSTAMP:${now
      .toISOString()
      .replace(/[-:]/g, "")
      .replace(/\.\d{3}/, "")}`,
    `DTSTART;VALUE=DATE:${compactDate(event.flightDate)}`,
    `DTEND;VALUE=DATE:${compactDate(nextDay(event.flightDate))}`,
    `SUMMARY:${escapeText(`Fast Track at ${airport} (${event.orderNumber})`)}`,
    ...(event.airport ? [`LOCATION:${escapeText(event.airport)}`] : []),
    `DESCRIPTION:${escapeText(description)}`,
    `URL:${event.bookingUrl}`,
    "TRANSP:TRANSPARENT",
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return lines.map(fold).join("\r\n") + "\r\n";
}
