import { inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "~/db/client.server";
import { session, user } from "~/db/schema";
import { grantAdmin } from "~/features/auth/roles.server";
import routes from "~/routes";
import { bookingFormFields } from "../../support/integration/booking-helpers";
import { cookieHeader } from "../../support/integration/requests";
import { startProductionServer, type ProductionServer } from "../../support/production-server";
import { testDatabaseKind } from "../../support/test-database";

// Every route of app/routes.ts, by GET and by POST, as five visitors, over HTTP to the production
// server: who gets what. The in-process access-control test covers each admin guard on both
// databases; this one proves the whole table through the real server (cookies, headers, redirects).

const kind = testDatabaseKind();
// One run is enough: on PostgreSQL when the suite has one, else on PGlite.
const runsHere = process.env.TEST_DATABASE_URL ? kind === "postgres" : true;

const VISITORS = ["anonymous", "member", "admin", "forged", "expired"] as const;
type Visitor = (typeof VISITORS)[number];

/** A status, or a redirect as "302 <location>". */
type Outcome = number | `302 ${string}`;
type Outcomes = Record<Visitor, Outcome>;

const everyone = (outcome: Outcome): Outcomes =>
  Object.fromEntries(VISITORS.map((visitor) => [visitor, outcome])) as Outcomes;

/** Pages of the back office: visitors who are not signed in (or whose cookie is bad) sign in first, members go home. */
const adminPage = (admin: Outcome): Outcomes => ({
  anonymous: "302 /auth",
  member: "302 /",
  admin,
  forged: "302 /auth",
  expired: "302 /auth",
});

const signedOutOnly = (outcome: Outcome): Outcomes => ({
  anonymous: outcome,
  member: "302 /",
  admin: "302 /",
  forged: outcome,
  expired: outcome,
});

/** The member area: a signed-in person's own pages; anyone else (or a bad cookie) signs in with an e-mailed code first. */
const memberArea = (signedIn: Outcome): Outcomes => ({
  anonymous: "302 /account/sign-in",
  member: signedIn,
  admin: signedIn,
  forged: "302 /account/sign-in",
  expired: "302 /account/sign-in",
});

/** Admin-only JSON endpoints: 401 without a valid session, 403 for a member. */
const adminApi = (admin: Outcome): Outcomes => ({ anonymous: 401, member: 403, admin, forged: 401, expired: 401 });

const NO_SUCH_ID = "00000000-0000-4000-8000-000000000000";
/** React Router's answer to a POST the route has no action for… */
const NOT_ALLOWED = 405;
/** …and to a GET of a resource route that only has an action. */
const NO_LOADER = 400;

interface RouteAccess {
  /** The route's path exactly as app/routes.ts declares it. */
  route: string;
  /** A concrete URL for it. */
  path: string | (() => string);
  get: Outcomes;
  /** An empty form POSTed with the site's Origin (JSON `{}` for the JSON APIs). */
  post: Outcomes;
  json?: boolean;
}

let bookedOrderId = "";

const TABLE: RouteAccess[] = [
  { route: "/", path: "/", get: everyone(200), post: everyone(NOT_ALLOWED) },
  // Signed-in visitors have nothing to do on the sign-in page; a bad cookie counts as signed out.
  { route: "auth", path: "/auth", get: signedOutOnly(200), post: signedOutOnly(400) },
  {
    route: "account",
    path: "/account",
    get: memberArea(200),
    // Its actions (cancel, ask for erasure) are the signed-in person's; an empty form is sent back with a toast.
    post: memberArea("302 /account"),
  },
  {
    route: "account/data.json",
    path: "/account/data.json",
    get: memberArea(200),
    post: everyone(NOT_ALLOWED),
  },
  // Only the signed-in address's own numbers; this one is nobody's (invoices.test.ts downloads real ones).
  {
    route: "account/invoices/:number",
    path: "/account/invoices/2026-999999",
    get: memberArea(404),
    post: everyone(NOT_ALLOWED),
  },
  // A Stripe-billed member's fee page (Stripe.js); with the sandbox the fee is paid from /account.
  {
    route: "account/pay",
    path: "/account/pay",
    get: memberArea("302 /account"),
    post: memberArea("302 /account"),
  },
  // A Stripe-billed member's card page (Stripe.js); with the sandbox the card form is on /account.
  {
    route: "account/card",
    path: "/account/card",
    get: memberArea("302 /account?card=replace"),
    post: memberArea("302 /account"),
  },
  {
    route: "account/sign-in",
    path: "/account/sign-in",
    get: {
      anonymous: 200,
      member: "302 /account",
      admin: "302 /account",
      forged: 200,
      expired: 200,
    },
    // An empty form asks for a code for no address: refused (and the signed-in sent on, as by GET).
    post: { anonymous: 400, member: "302 /account", admin: "302 /account", forged: 400, expired: 400 },
  },
  { route: "admin", path: "/admin", get: adminPage(200), post: everyone(NOT_ALLOWED) },
  { route: "admin/orders", path: "/admin/orders", get: adminPage(200), post: everyone(NOT_ALLOWED) },
  {
    route: "admin/orders/export.csv",
    path: "/admin/orders/export.csv",
    get: adminPage(200),
    post: everyone(NOT_ALLOWED),
  },
  { route: "admin/orders/:orderId", path: `/admin/orders/${NO_SUCH_ID}`, get: adminPage(404), post: adminPage(400) },
  { route: "admin/clients", path: "/admin/clients", get: adminPage(200), post: everyone(NOT_ALLOWED) },
  {
    route: "admin/clients/:customerId",
    path: `/admin/clients/${NO_SUCH_ID}`,
    get: adminPage(404),
    post: everyone(NOT_ALLOWED),
  },
  { route: "admin/memberships", path: "/admin/memberships", get: adminPage(200), post: everyone(NOT_ALLOWED) },
  {
    route: "admin/memberships/:membershipId",
    path: `/admin/memberships/${NO_SUCH_ID}`,
    get: adminPage(404),
    post: adminPage(400),
  },
  { route: "admin/messages", path: "/admin/messages", get: adminPage(200), post: adminPage(400) },
  { route: "admin/data-requests", path: "/admin/data-requests", get: adminPage(200), post: adminPage(400) },
  {
    route: "admin/data-requests/:requestId",
    path: `/admin/data-requests/${NO_SUCH_ID}`,
    get: adminPage(404),
    post: adminPage(404),
  },
  { route: "admin/withdrawals", path: "/admin/withdrawals", get: adminPage(200), post: everyone(NOT_ALLOWED) },
  { route: "admin/statistics", path: "/admin/statistics", get: adminPage(200), post: everyone(NOT_ALLOWED) },
  { route: "admin/emails", path: "/admin/emails", get: adminPage(200), post: everyone(NOT_ALLOWED) },
  {
    route: "admin/emails/:mailId",
    path: `/admin/emails/${NO_SUCH_ID}`,
    get: adminPage(404),
    post: everyone(NOT_ALLOWED),
  },
  {
    route: "admin/emails/:mailId/pieces/:index",
    path: `/admin/emails/${NO_SUCH_ID}/pieces/0`,
    get: adminPage(404),
    post: everyone(NOT_ALLOWED),
  },
  { route: "admin/system", path: "/admin/system", get: adminPage(200), post: everyone(NOT_ALLOWED) },
  {
    route: "admin/system/failed-emails",
    path: "/admin/system/failed-emails",
    get: adminPage(200),
    post: adminPage(400),
  },
  {
    route: "admin/system/failed-events",
    path: "/admin/system/failed-events",
    get: adminPage(200),
    post: adminPage(400),
  },
  {
    route: "admin/data-requests/:requestId/export",
    path: `/admin/data-requests/${NO_SUCH_ID}/export`,
    get: everyone(NO_LOADER),
    post: adminPage(404),
  },
  { route: "pre-checkout", path: "/pre-checkout", get: everyone(200), post: everyone(NOT_ALLOWED) },
  { route: "membership-checkout", path: "/membership-checkout", get: everyone(200), post: everyone(400) },
  {
    // The membership's opaque id is what shows its confirmation; there is none by this one.
    route: "membership-checkout/:membershipId",
    path: `/membership-checkout/${NO_SUCH_ID}`,
    get: everyone(404),
    post: everyone(NOT_ALLOWED),
  },
  { route: "services", path: "/services", get: everyone(200), post: everyone(NOT_ALLOWED) },
  { route: "services/contact", path: "/services/contact", get: everyone(200), post: everyone(400) },
  { route: "fast-track", path: "/fast-track", get: everyone(200), post: everyone(NOT_ALLOWED) },
  { route: "fast-track-form", path: "/fast-track-form", get: everyone(200), post: everyone(400) },
  {
    // The order's opaque id is what lets its payer in, whoever they are signed in as.
    route: "fast-track-payment/:orderId",
    path: () => `/fast-track-payment/${bookedOrderId}`,
    get: everyone(200),
    post: everyone(400),
  },
  // Stripe mode's: the sandbox (this server) has neither (stripe-payments.test.ts covers them).
  {
    route: "fast-track-payment/:orderId/open",
    path: () => `/fast-track-payment/${bookedOrderId}/open`,
    get: everyone(404),
    post: everyone(404),
  },
  { route: "contact", path: "/contact", get: everyone(200), post: everyone(400) },
  { route: "unsubscribe", path: "/unsubscribe", get: everyone(200), post: everyone(400) },
  // Without a token the page explains the link is not valid; posting one that is not is refused.
  { route: "unsubscribe/confirm", path: "/unsubscribe/confirm", get: everyone(200), post: everyone(400) },
  { route: "withdraw", path: "/withdraw", get: everyone(200), post: everyone(400) },
  { route: "terms", path: "/terms", get: everyone(200), post: everyone(NOT_ALLOWED) },
  { route: "subscription-terms", path: "/subscription-terms", get: everyone(200), post: everyone(NOT_ALLOWED) },
  { route: "privacy", path: "/privacy", get: everyone(200), post: everyone(NOT_ALLOWED) },
  { route: "faq", path: "/faq", get: everyone(200), post: everyone(NOT_ALLOWED) },
  { route: "config-generator", path: "/config-generator", get: adminPage(200), post: adminPage(400) },
  { route: "api/vouchers/:code", path: "/api/vouchers/made-up", get: adminApi(404), post: everyone(NOT_ALLOWED) },
  { route: "currency", path: "/currency", get: everyone("302 /"), post: everyone(400) },
  { route: "sitemap.xml", path: "/sitemap.xml", get: everyone(200), post: everyone(NOT_ALLOWED) },
  { route: "robots.txt", path: "/robots.txt", get: everyone(200), post: everyone(NOT_ALLOWED) },
  { route: "images/:file", path: "/images/hero.svg", get: everyone(200), post: everyone(NOT_ALLOWED) },
  {
    route: "api/regenerate-wordings",
    path: "/api/regenerate-wordings",
    get: everyone(NOT_ALLOWED),
    post: adminApi(400),
    json: true,
  },
  { route: "healthz", path: "/healthz", get: everyone(200), post: everyone(NOT_ALLOWED) },
  // Only the bearer token opens it, never a session, not even an admin's.
  { route: "metrics", path: "/metrics", get: everyone(401), post: everyone(NOT_ALLOWED) },
  { route: "stripe/webhook", path: "/stripe/webhook", get: everyone(404), post: everyone(404) },
  { route: "sign-out", path: "/sign-out", get: everyone("302 /"), post: everyone("302 /") },
  { route: "api/auth/*", path: "/api/auth/sign-in/email", get: everyone(404), post: everyone(400), json: true },
  { route: "*", path: "/no-such-page", get: everyone(404), post: everyone(NOT_ALLOWED) },
];

/** Every path app/routes.ts declares, nested ones included; a layout route (the back office's) has none of its own. */
function declaredRoutes(entries: { path?: string; index?: boolean; children?: unknown[] }[]): string[] {
  return entries.flatMap((entry) => [
    ...(entry.index ? ["/"] : entry.path === undefined ? [] : [entry.path]),
    ...declaredRoutes((entry.children ?? []) as typeof entries),
  ]);
}

let server: ProductionServer;
const cookies = {} as Record<Visitor, string | undefined>;
let addresses = 0;

function request(path: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  addresses += 1;
  return fetch(`${server.baseUrl}${path}`, {
    redirect: "manual",
    ...init,
    headers: {
      Origin: server.baseUrl,
      "X-Forwarded-For": `10.44.${addresses >> 8}.${addresses & 255}`,
      ...init.headers,
    },
  });
}

async function signedUpCookie(email: string): Promise<string> {
  const password = "route-access-1";
  const json = { "Content-Type": "application/json" };
  const signUp = await request("/api/auth/sign-up/email", {
    method: "POST",
    headers: json,
    body: JSON.stringify({ name: "Route Access", email, password }),
  });
  expect(signUp.status).toBe(200);
  const signIn = await request("/api/auth/sign-in/email", {
    method: "POST",
    headers: json,
    body: JSON.stringify({ email, password }),
  });
  expect(signIn.status).toBe(200);
  return cookieHeader(signIn.headers);
}

/**
 * Makes the admins admins, and ends the expired one's session an hour ago, in the server's
 * database. PGlite belongs to the server process, so that server is stopped and a new one started on
 * its data.
 */
async function prepareAccounts(emails: { admins: string[]; expired: string }) {
  const onPglite = !server.databaseUrl;
  if (onPglite) await server.stop();
  const handle = await openDatabase(
    server.databaseUrl ? { kind: "postgres", url: server.databaseUrl } : { kind: "pglite", dataDir: server.dataDir },
  );
  try {
    // Their owners confirmed the addresses (the auth and admin CLI tests follow the mail's link):
    // only the role matters here.
    await handle.db.update(user).set({ emailVerified: true }).where(inArray(user.email, emails.admins));
    for (const email of emails.admins) expect(await grantAdmin(handle.db, email)).toBe("changed");
    await handle.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 3_600_000) })
      .where(sql`${session.userId} = (select id from "user" where email = ${emails.expired})`);
  } finally {
    await handle.close();
  }
  if (onPglite) server = await startProductionServer(kind, SERVER_ENV, { dataOf: server, samePort: true });
}

const SERVER_ENV = { TRUST_PROXY: "true", LOG_LEVEL: "warn", METRICS_TOKEN: "route-access-metrics-token-0123456789" };
let firstServer: ProductionServer | undefined;

describe.runIf(runsHere)(`every route and method, by visitor, on the production server (${kind})`, () => {
  beforeAll(async () => {
    server = await startProductionServer(kind, SERVER_ENV);
    firstServer = server;
    const stamp = Date.now();
    const emails = {
      member: `member.${stamp}@example.com`,
      admin: `admin.${stamp}@example.com`,
      expired: `expired.${stamp}@example.com`,
    };
    cookies.anonymous = undefined;
    cookies.member = await signedUpCookie(emails.member);
    cookies.admin = await signedUpCookie(emails.admin);
    cookies.expired = await signedUpCookie(emails.expired);
    cookies.forged = cookies.admin.replace(/=([^.;]+)\.([^;]+)/, "=$1.forged-signature");
    expect(cookies.forged).not.toBe(cookies.admin);
    await prepareAccounts({ admins: [emails.admin, emails.expired], expired: emails.expired });

    const booked = await request("/fast-track-form", {
      method: "POST",
      body: new URLSearchParams(bookingFormFields()),
    });
    expect(booked.status).toBe(302);
    bookedOrderId = /\/fast-track-payment\/([0-9a-f-]{36})$/.exec(booked.headers.get("Location") ?? "")![1]!;
  }, 120_000);

  afterAll(async () => {
    if (server !== firstServer) await server?.dispose();
    await firstServer?.dispose();
  });

  it("has a row for every route app/routes.ts declares", () => {
    expect(TABLE.map((row) => row.route).sort()).toEqual(declaredRoutes(routes).sort());
  });

  const cases = TABLE.flatMap((row) =>
    (["GET", "POST"] as const).flatMap((method) =>
      VISITORS.map((visitor) => ({
        ...row,
        method,
        visitor,
        expected: row[method === "GET" ? "get" : "post"][visitor],
      })),
    ),
  );

  it.each(cases)("$method $route as $visitor: $expected", async ({ path, method, visitor, json, expected }) => {
    const cookie = cookies[visitor];
    const headers: Record<string, string> = cookie ? { Cookie: cookie } : {};
    let body: BodyInit | undefined;
    if (method === "POST" && json) {
      headers["Content-Type"] = "application/json";
      body = "{}";
    } else if (method === "POST") {
      body = new URLSearchParams();
    }
    const response = await request(typeof path === "string" ? path : path(), { method, headers, body });
    await response.arrayBuffer();
    const location = response.headers.get("Location");
    expect(response.status === 302 ? `302 ${location}` : response.status).toBe(expected);
  });

  it("lets nobody read an order by guessing its id", async () => {
    for (const visitor of VISITORS) {
      const cookie = cookies[visitor];
      const response = await request(`/fast-track-payment/${NO_SUCH_ID}`, {
        headers: cookie ? { Cookie: cookie } : {},
      });
      expect(response.status, visitor).toBe(404);
      expect(await response.text()).not.toContain(bookedOrderId);
    }
  });
});
