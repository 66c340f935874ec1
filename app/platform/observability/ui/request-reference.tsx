import { createContext, useContext } from "react";

/**
 * The id of the request being rendered (X-Request-Id), given by the server's renderer. Empty in the
 * browser, which never learns the id of a request it did not send as a page load.
 */
const RequestIdContext = createContext("");

export const RequestIdProvider = RequestIdContext.Provider;

/**
 * The line of an error page a visitor can quote to the support, who finds the request's log lines
 * by it. Nothing when the id is unknown (an error drawn by the browser after a client-side
 * navigation).
 */
export function RequestReference({ lang }: { lang: string }) {
  const id = useContext(RequestIdContext);
  if (!id) return null;
  return (
    <p className="mt-6 text-sm text-muted-foreground">
      {lang === "fr" ? "Référence\u00a0: " : "Reference: "}
      <code className="select-all wrap-break-word">{id}</code>
    </p>
  );
}
