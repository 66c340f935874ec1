import { ACCOUNT_SIGN_IN_PATH } from "~/components/layout/nav-links";
import { seal, unseal } from "~/lib/sealed.server";

/** The sign-in page with an address filled in, at its first step or at the code's. */
export function signInPath(email: string, step: "email" | "code" = "email"): string {
  const query = new URLSearchParams({ for: seal("sign-in-address", email) });
  if (step === "code") query.set("step", "code");
  return `${ACCOUNT_SIGN_IN_PATH}?${query.toString()}`;
}

/**
 * The sign-in page with the member's address filled in, for the "Manage your membership" links of
 * their e-mails. The address travels sealed, never in clear in a URL.
 */
export function manageMembershipLink(origin: string, email: string): string {
  return new URL(signInPath(email), origin).toString();
}

/** The sign-in page with the address and a code filled in: opening it signs no one in, its button does. */
export function signInLink(origin: string, email: string, code: string): string {
  const url = new URL(ACCOUNT_SIGN_IN_PATH, origin);
  url.searchParams.set("link", seal("sign-in-link", JSON.stringify({ email, code })));
  return url.toString();
}

/** What a sign-in page's query fills in: the address, and the code when the link carried one. */
export function readSignInQuery(query: URLSearchParams): { email: string; code: string } | null {
  const link = query.get("link");
  if (link) {
    const opened = unseal("sign-in-link", link);
    if (!opened) return null;
    const parsed = JSON.parse(opened) as { email: string; code: string };
    return { email: parsed.email, code: parsed.code };
  }
  const address = query.get("for");
  const email = address ? unseal("sign-in-address", address) : null;
  return email ? { email, code: "" } : null;
}
