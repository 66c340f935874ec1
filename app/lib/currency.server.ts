import { DEFAULT_CURRENCY, isCurrencyCode, type CurrencyCode } from "./currency";
import { readCookie, serializeCookie } from "~/lib/cookies.server";

const COOKIE_NAME = "currency";
const ONE_YEAR_SECONDS = 60 * 60 * 24 * 365;

/** The visitor's chosen currency, from their cookie; USD when none or an unknown one is set. */
export function currencyFromRequest(request: Request): CurrencyCode {
  const value = readCookie(request, COOKIE_NAME);
  return isCurrencyCode(value) ? value : DEFAULT_CURRENCY;
}

export function currencyCookie(code: CurrencyCode): string {
  return serializeCookie(COOKIE_NAME, code, { maxAge: ONE_YEAR_SECONDS, httpOnly: false });
}
