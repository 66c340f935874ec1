import { and, desc, eq, like } from "drizzle-orm";
import { beforeAll, expect } from "vitest";
import type { Database } from "~/db/client.server";
import { outbox } from "~/db/schema";
import { getAuth } from "~/features/auth/auth.server";
import { signIn, signUp } from "~/features/auth/credentials.server";
import { grantAdmin } from "~/features/auth/roles.server";
import { CLIENT_ADDRESS_HEADER } from "~/lib/client-address.server";
import { takeToast } from "~/lib/toast.server";
import { createAccount, type AccountSteps, type Person } from "../accounts";
import { installedTestDatabase } from "./installed-database";

// Requests as a browser sends them to a route's loader or action: from a client address of their own,
// with the session cookie of an account made for the test.

let addresses = 0;

/** A client address of its own, so that a test's attempts do not count against another's rate limit. */
export function freshClientAddress(): string {
  addresses += 1;
  return `10.${(addresses >> 16) & 255}.${(addresses >> 8) & 255}.${addresses & 255}`;
}

interface RequestOptions {
  cookie?: string;
  address?: string;
}

function headersFor({ cookie, address = freshClientAddress() }: RequestOptions) {
  const headers = new Headers({ [CLIENT_ADDRESS_HEADER]: address });
  if (cookie) headers.set("Cookie", cookie);
  return headers;
}

export function pageRequest(path: string, options: RequestOptions = {}): Request {
  return new Request(new URL(path, "http://localhost"), { headers: headersFor(options) });
}

export function formRequest(path: string, fields: Record<string, string>, options: RequestOptions = {}): Request {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.set(name, value);
  return new Request(new URL(path, "http://localhost"), { method: "POST", headers: headersFor(options), body });
}

/** The Cookie header a browser would send back after these Set-Cookie headers. */
export function cookieHeader(headers: Headers): string {
  return headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/** The toast a response's cookies carry, as the next page would show it. */
export function toastOf(headers: Headers) {
  return takeToast(new Request("http://localhost/", { headers: { Cookie: cookieHeader(headers) } })).toast;
}

/** The link of the address-confirmation mail `email` was sent at sign-up, from the outbox. */
export async function confirmationLink(db: Database, email: string): Promise<string> {
  const [mail] = await db
    .select({ text: outbox.textBody })
    .from(outbox)
    .where(and(eq(outbox.to, email.toLowerCase()), like(outbox.subject, "%confirm your e-mail address")))
    .orderBy(desc(outbox.createdAt))
    .limit(1);
  const link = /https?:\/\/[^\s\]]+\/verify-email\?token=[^\s\]]+/.exec(mail?.text ?? "")?.[0];
  if (!link) throw new Error(`No confirmation link was sent to ${email}`);
  return link;
}

/** Follows that link, as the address's owner does: better-auth marks the address confirmed and sends them home. */
export async function confirmAddress(db: Database, email: string) {
  const response = await getAuth().handler(new Request(await confirmationLink(db, email)));
  expect(response.status).toBe(302);
}

/** A signed-in account: who it is, and the Cookie header of its session. */
export type TestAccount = Person & { cookie: string };

const serverSteps = (db: Database): AccountSteps<string> => ({
  signUp: async (person) => {
    const signedUp = await signUp(pageRequest("/auth"), { ...person, confirmPassword: person.password });
    expect(signedUp.ok).toBe(true);
  },
  grantAdmin: async (email) => {
    await confirmAddress(db, email);
    expect(await grantAdmin(db, email)).toBe("changed");
  },
  signIn: async ({ email, password }) => {
    const signedIn = await signIn(pageRequest("/auth"), { email, password });
    if (!signedIn.ok) throw new Error(`sign-in failed: ${signedIn.reason}`);
    return cookieHeader(signedIn.headers);
  },
});

/** Signs a new user up and in, through better-auth as the site does; an admin when asked. */
export async function createSignedInAccount(db: Database, { admin = false } = {}): Promise<TestAccount> {
  const { session, ...person } = await createAccount(serverSteps(db), { admin });
  return { ...person, cookie: session };
}

/** A fresh database for the test file, installed as the process's database, with a signed-in admin. */
export function databaseWithAdmin() {
  const db = installedTestDatabase();
  let admin: TestAccount;
  beforeAll(async () => {
    admin = await createSignedInAccount(db(), { admin: true });
  });
  return { db, admin: (): TestAccount => admin };
}
