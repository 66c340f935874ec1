import type { HeadersFunction } from "react-router";
import { passRetryAfter } from "~/lib/retry-after";

/**
 * The `headers` of the member area's pages: they show one person's data (or a sign-in code), so
 * neither a shared cache nor the browser's back-forward cache keeps them; a 429 says when to retry.
 */
export const privatePageHeaders: HeadersFunction = (args) => {
  const headers = new Headers(passRetryAfter(args));
  headers.set("Cache-Control", "private, no-store");
  return headers;
};
