import { beforeAll, expect } from "vitest";
import type { Database } from "~/db/client.server";
import { signIn, signUp } from "~/features/auth/credentials.server";
import { grantAdmin } from "~/features/auth/roles.server";
import { CLIENT_ADDRESS_HEADER } from "~/lib/client-address.server";
import { installedTestDatabase } from "./installed-database";

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

export interface TestAccount {
  email: string;
  password: string;
  /** The Cookie header of a signed-in session. */
  cookie: string;
}

let accounts = 0;

/** Signs a new user up and in, through better-auth as the site does; an admin when asked. */
export async function createSignedInAccount(db: Database, { admin = false } = {}): Promise<TestAccount> {
  accounts += 1;
  const email = `person${accounts}.${Date.now()}@example.com`;
  const password = `pass-${accounts}-word`;
  const signedUp = await signUp(pageRequest("/auth"), {
    fullName: `Person ${accounts}`,
    email,
    password,
    confirmPassword: password,
  });
  expect(signedUp.ok).toBe(true);
  const signedIn = await signIn(pageRequest("/auth"), { email, password });
  if (!signedIn.ok) throw new Error(`sign-in failed: ${signedIn.reason}`);
  if (admin) expect(await grantAdmin(db, email)).toBe("changed");
  return { email, password, cookie: cookieHeader(signedIn.headers) };
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
