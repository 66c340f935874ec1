import { expect } from "vitest";
import { readSignInQuery } from "~/features/auth/sign-in-link.server";

/**
 * The account button of a mail's plain text (`label`, then its link): where it leads, and the address
 * the sign-in page it opens fills in.
 */
export function accountLinkOf(text: string, label: string): { origin: string; email: string | undefined } {
  const link = new RegExp(`${label}\\s*\\[?(https?://\\S+?/account/sign-in\\?for=[\\w-]+)`).exec(text)?.[1];
  expect(link, text).toBeTruthy();
  const url = new URL(link!);
  return { origin: url.origin, email: readSignInQuery(url.searchParams)?.email };
}
