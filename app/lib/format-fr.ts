import { COMPANY_TIME_ZONE, companyDay } from "./company-time";
import { currencyByCode, type CurrencyCode } from "./currency";

// The admin pages are French. These build their text from numbers themselves rather than through
// Intl's full French patterns, whose spaces and words differ between ICU versions: the server's
// and the browser's rendering must be identical for hydration.

const dateParts = new Intl.DateTimeFormat("fr-FR", {
  timeZone: COMPANY_TIME_ZONE,
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** "24/06/2025 14:05", in Amsterdam time. */
export function formatDateTimeFr(date: Date): string {
  const part = Object.fromEntries(dateParts.formatToParts(date).map(({ type, value }) => [type, value]));
  return `${part.day}/${part.month}/${part.year} ${part.hour}:${part.minute}`;
}

const NARROW_NO_BREAK_SPACE = "\u202f";
const NO_BREAK_SPACE = "\u00a0";

/** "1 234 567": French digit grouping. */
export function formatCountFr(value: number): string {
  return Math.trunc(value)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, NARROW_NO_BREAK_SPACE);
}

/** "1 234,50 €" from 123450 minor units: French grouping, comma decimals, symbol after the number. */
export function formatAmountFr(minorUnits: number, code: CurrencyCode): string {
  const sign = minorUnits < 0 ? "-" : "";
  const absolute = Math.abs(Math.trunc(minorUnits));
  const whole = formatCountFr(Math.floor(absolute / 100));
  const cents = (absolute % 100).toString().padStart(2, "0");
  return `${sign}${whole},${cents}${NO_BREAK_SPACE}${currencyByCode(code).symbol}`;
}

/** "21/03/2025" from "2025-03-21". */
export function formatDayFr(isoDate: string): string {
  return isoDate.split("-").reverse().join("/");
}

/** "24/06/2025": the day `date` falls on in Amsterdam. */
export function formatDateFr(date: Date): string {
  return formatDayFr(companyDay(date));
}

const twoDigits = (value: number) => value.toString().padStart(2, "0");

/** "40 ms", "2,4 s", "12 s", "3 min 05 s", "1 h 02 min": how long something took. */
export function formatDurationFr(ms: number): string {
  const unit = (value: string, name: string) => `${value}${NO_BREAK_SPACE}${name}`;
  if (ms < 999.5) return unit(Math.round(ms).toString(), "ms");
  if (ms < 9_950) return unit((Math.round(ms / 100) / 10).toString().replace(".", ","), "s");
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return unit(seconds.toString(), "s");
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${unit(minutes.toString(), "min")} ${unit(twoDigits(seconds % 60), "s")}`;
  return `${unit(Math.floor(minutes / 60).toString(), "h")} ${unit(twoDigits(minutes % 60), "min")}`;
}
