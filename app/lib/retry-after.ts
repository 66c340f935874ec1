import type { HeadersFunction } from "react-router";

/**
 * The `headers` export of a route whose action can be rate limited: React Router keeps an action's
 * headers (but its cookies) off the page's response unless the route passes them on, and a 429
 * should say when to try again.
 */
export const passRetryAfter: HeadersFunction = ({ actionHeaders, parentHeaders }) => {
  const headers = new Headers(parentHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};
