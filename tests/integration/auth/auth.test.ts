import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { account, outbox, rateLimit, session, user } from "~/db/schema";
import { AUTH_RATE_LIMITS } from "~/features/auth/auth.server";
import { getOptionalUser } from "~/features/auth/guards.server";
import { loader as rootLoader } from "~/root";
import { action as apiAction, loader as apiLoader } from "~/routes/api.auth.$";
import { action as authAction, loader as authLoader } from "~/routes/auth";
import { action as signOutAction } from "~/routes/sign-out";
import { CLIENT_ADDRESS_HEADER } from "~/lib/client-address.server";
import {
  confirmAddress,
  confirmationLink,
  cookieHeader,
  createSignedInAccount,
  formRequest,
  freshClientAddress,
  pageRequest,
} from "../../support/integration/requests";
import { routeArgs, routeResult } from "../../support/integration/route-result";
import { installedTestDatabase } from "../../support/integration/installed-database";
import { testDatabaseKind } from "../../support/test-database";

const testDb = installedTestDatabase();

const SIGN_IN_LIMIT = AUTH_RATE_LIMITS["/sign-in/email"].max;
const SIGN_UP_LIMIT = AUTH_RATE_LIMITS["/sign-up/email"].max;

function submit(fields: Record<string, string>, options: { address?: string; cookie?: string } = {}) {
  return routeResult(() => authAction(routeArgs(formRequest("/auth", fields, options))));
}

function signUpFields(email: string, password = "secret123", fullName = "Jeanne Martin") {
  return { intent: "sign-up", fullName, email, password, confirmPassword: password };
}

function signInFields(email: string, password: string) {
  return { intent: "sign-in", email, password };
}

/** Every table of the database, each row as text, for looking for a value anywhere. */
async function everyRowAsText(): Promise<string> {
  const tables = (await testDb().execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  )) as unknown as { rows: { table_name: string }[] };
  const texts: string[] = [];
  for (const { table_name } of tables.rows) {
    const result = (await testDb().execute(
      sql`select t::text as row from ${sql.identifier(table_name)} t`,
    )) as unknown as { rows: { row: string }[] };
    texts.push(...result.rows.map((row) => row.row));
  }
  return texts.join("\n");
}

describe(`sign-up on ${testDatabaseKind()}`, () => {
  it("creates the user with their full name and a hashed password, appearing nowhere in clear", async () => {
    const password = "Clear-Text-Pa55word";
    const result = await submit(signUpFields("new.person@example.com", password, "Jeanne Martin"));
    expect(result.status).toBe(200);
    expect(result.data).toMatchObject({
      toast: {
        type: "success",
        title: "Compte créé avec succès",
        description: "Vous pouvez maintenant vous connecter",
      },
    });
    expect(JSON.stringify(result.data)).not.toContain(password);

    const [created] = await testDb().select().from(user).where(eq(user.email, "new.person@example.com"));
    expect(created).toMatchObject({ fullName: "Jeanne Martin", name: "Jeanne Martin" });
    const [credential] = await testDb().select().from(account).where(eq(account.userId, created!.id));
    expect(credential!.providerId).toBe("credential");
    expect(credential!.password).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/); // scrypt: salt:key
    expect(await everyRowAsText()).not.toContain(password);
  });

  it("e-mails a link that confirms the address: the account is unconfirmed until its owner follows it", async () => {
    await submit(signUpFields("Owner@Example.com", "owner-password"));
    const [created] = await testDb().select().from(user).where(eq(user.email, "owner@example.com"));
    expect(created!.emailVerified).toBe(false);
    const [mail] = await testDb().select().from(outbox).where(eq(outbox.to, "owner@example.com"));
    expect(mail!.subject).toMatch(/: confirm your e-mail address$/);
    for (const body of [mail!.textBody, mail!.htmlBody]) {
      expect(body).toContain("Confirm my e-mail address");
      expect(body).toContain("The link works for one hour.");
    }
    const link = await confirmationLink(testDb(), "owner@example.com");
    expect(new URL(link).pathname).toBe("/api/auth/verify-email");

    // A forged token confirms nothing.
    const forged = new URL(link);
    forged.searchParams.set("token", `${forged.searchParams.get("token")!.slice(0, -4)}AAAA`);
    await apiLoader(routeArgs(new Request(forged)));
    expect((await testDb().select().from(user).where(eq(user.id, created!.id)))[0]!.emailVerified).toBe(false);

    await confirmAddress(testDb(), "owner@example.com");
    expect((await testDb().select().from(user).where(eq(user.id, created!.id)))[0]!.emailVerified).toBe(true);
  });

  it("answers a registered e-mail exactly like a new one, and changes nothing", async () => {
    await submit(signUpFields("taken@example.com", "first-password", "First Owner"));
    const [before] = await testDb().select().from(user).where(eq(user.email, "taken@example.com"));
    const [beforeCredential] = await testDb().select().from(account).where(eq(account.userId, before!.id));

    const again = await submit(signUpFields("Taken@Example.com", "second-password", "Someone Else"));
    const fresh = await submit(signUpFields("unused@example.com", "second-password", "Someone Else"));
    expect(again.status).toBe(fresh.status);
    expect(again.data).toEqual(fresh.data);

    const owners = await testDb().select().from(user).where(eq(user.email, "taken@example.com"));
    expect(owners).toEqual([before]);
    const [afterCredential] = await testDb().select().from(account).where(eq(account.userId, before!.id));
    expect(afterCredential!.password).toBe(beforeCredential!.password);
  });

  it("refuses mismatched and short passwords with the French messages, without echoing them", async () => {
    const mismatch = await submit({ ...signUpFields("mismatch@example.com"), confirmPassword: "secret124" });
    expect(mismatch.status).toBe(400);
    expect(mismatch.data).toMatchObject({
      result: { error: { confirmPassword: ["Les mots de passe ne correspondent pas"] } },
    });
    expect(JSON.stringify(mismatch.data)).not.toContain("secret12");

    const short = await submit(signUpFields("short@example.com", "abc12"));
    expect(short.data).toMatchObject({
      result: { error: { password: ["Le mot de passe doit contenir au moins 6 caractères"] } },
    });
    const missing = await submit({ intent: "sign-up" });
    expect(missing.data).toMatchObject({
      result: { error: { fullName: ["Ce champ est obligatoire"], email: ["Ce champ est obligatoire"] } },
    });
    expect(await testDb().select().from(user).where(eq(user.email, "mismatch@example.com"))).toEqual([]);
  });
});

describe(`sign-in and sign-out on ${testDatabaseKind()}`, () => {
  it("signs in to the home page with a session cookie (httpOnly, SameSite=Lax) and a toast", async () => {
    await submit(signUpFields("reader@example.com", "reader-pass"));
    const result = await submit(signInFields("reader@example.com", "reader-pass"));
    expect(result).toMatchObject({ status: 302, location: "/" });
    const cookies = result.headers.getSetCookie();
    expect(cookies.find((cookie) => cookie.startsWith("better-auth.session_token="))).toMatch(/HttpOnly/);
    expect(cookies.find((cookie) => cookie.startsWith("better-auth.session_token="))).toMatch(/SameSite=Lax/);
    expect(cookies.some((cookie) => cookie.startsWith("toast="))).toBe(true);

    const cookie = cookieHeader(result.headers);
    const root = await routeResult(() => rootLoader(routeArgs(pageRequest("/", { cookie }))));
    expect(root.data).toMatchObject({ user: { name: "Jeanne Martin", email: "reader@example.com" }, isAdmin: false });
    const authPage = await routeResult(() => authLoader(routeArgs(pageRequest("/auth", { cookie }))));
    expect(authPage).toMatchObject({ status: 302, location: "/" });
  });

  it("gives one answer for a wrong password and an unknown e-mail", async () => {
    await submit(signUpFields("known@example.com", "right-password"));
    const wrongPassword = await submit(signInFields("known@example.com", "wrong-password"));
    const unknownEmail = await submit(signInFields("nobody@example.com", "wrong-password"));
    expect(wrongPassword.status).toBe(401);
    expect(wrongPassword.data).toMatchObject({
      toast: { type: "error", title: "Erreur de connexion", description: "E-mail ou mot de passe incorrect" },
    });
    const answer = (result: typeof wrongPassword) => {
      const { toast, result: reply } = result.data as { toast: unknown; result: { error: unknown } };
      return { status: result.status, toast, error: reply.error };
    };
    expect(answer(unknownEmail)).toEqual(answer(wrongPassword));
  });

  it("signs out: the session is deleted, its cookie cleared, with the French toast", async () => {
    const person = await createSignedInAccount(testDb());
    expect(await getOptionalUser(pageRequest("/", { cookie: person.cookie }))).not.toBeNull();
    const result = await routeResult(() =>
      signOutAction(routeArgs(formRequest("/sign-out", {}, { cookie: person.cookie }))),
    );
    expect(result).toMatchObject({ status: 302, location: "/" });
    const cookies = result.headers.getSetCookie();
    expect(cookies.find((cookie) => cookie.startsWith("better-auth.session_token="))).toMatch(/Max-Age=0/);
    const toast = cookies
      .find((cookie) => cookie.startsWith("toast="))!
      .split(";")[0]!
      .slice("toast=".length);
    expect(JSON.parse(Buffer.from(decodeURIComponent(toast), "base64url").toString())).toEqual({
      type: "success",
      title: "Déconnexion réussie",
      description: "À bientôt !",
    });
    expect(await getOptionalUser(pageRequest("/", { cookie: person.cookie }))).toBeNull();
    const [signedInUser] = await testDb().select().from(user).where(eq(user.email, person.email));
    expect(await testDb().select().from(session).where(eq(session.userId, signedInUser!.id))).toEqual([]);
  });
});

describe(`rate limiting on ${testDatabaseKind()}`, () => {
  it(`refuses sign-in after ${SIGN_IN_LIMIT} attempts a minute from one address, even with the right password`, async () => {
    await submit(signUpFields("target@example.com", "the-right-one"));
    const attacker = freshClientAddress();
    for (let attempt = 1; attempt <= SIGN_IN_LIMIT; attempt++) {
      expect((await submit(signInFields("target@example.com", `guess-${attempt}`), { address: attacker })).status).toBe(
        401,
      );
    }
    const blocked = await submit(signInFields("target@example.com", "the-right-one"), { address: attacker });
    expect(blocked.status).toBe(429);
    expect(blocked.data).toMatchObject({
      toast: { title: "Erreur de connexion", description: "Trop de tentatives. Veuillez réessayer dans une minute." },
    });

    // The count lives in the database, where every instance sees it; other addresses are not affected.
    const [counter] = await testDb()
      .select()
      .from(rateLimit)
      .where(eq(rateLimit.key, `${attacker}|/sign-in/email`));
    expect(counter!.count).toBe(SIGN_IN_LIMIT);
    const someoneElse = await submit(signInFields("target@example.com", "the-right-one"));
    expect(someoneElse).toMatchObject({ status: 302, location: "/" });
  });

  it(`refuses sign-up after ${SIGN_UP_LIMIT} attempts a minute from one address`, async () => {
    const address = freshClientAddress();
    for (let attempt = 1; attempt <= SIGN_UP_LIMIT; attempt++) {
      expect((await submit(signUpFields(`burst${attempt}@example.com`), { address })).status).toBe(200);
    }
    const blocked = await submit(signUpFields("burst-last@example.com"), { address });
    expect(blocked.status).toBe(429);
    expect(blocked.data).toMatchObject({ toast: { title: "Erreur d'inscription" } });
    expect(await testDb().select().from(user).where(eq(user.email, "burst-last@example.com"))).toEqual([]);
  });
});

describe(`better-auth's JSON API at /api/auth on ${testDatabaseKind()}`, () => {
  it("answers with the session of the cookie", async () => {
    const person = await createSignedInAccount(testDb());
    const response = await apiLoader(routeArgs(pageRequest("/api/auth/get-session", { cookie: person.cookie })));
    expect(await response.json()).toMatchObject({ user: { email: person.email } });
  });

  it("counts its sign-ins against the same limit as the form's", async () => {
    const address = freshClientAddress();
    for (let attempt = 1; attempt <= SIGN_IN_LIMIT; attempt++) {
      await submit(signInFields("target@example.com", `guess-${attempt}`), { address });
    }
    const request = new Request("http://localhost/api/auth/sign-in/email", {
      method: "POST",
      headers: { "Content-Type": "application/json", [CLIENT_ADDRESS_HEADER]: address },
      body: JSON.stringify({ email: "target@example.com", password: "the-right-one" }),
    });
    expect((await apiAction(routeArgs(request))).status).toBe(429);
  });
});
