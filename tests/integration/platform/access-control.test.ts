import { readdirSync, readFileSync } from "node:fs";
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { session } from "~/db/schema";
import { loader as adminLoader } from "~/routes/admin";
import { loader as customerLoader } from "~/routes/admin.clients.$customerId";
import { loader as customersLoader } from "~/routes/admin.clients";
import { action as membershipAction, loader as membershipLoader } from "~/routes/admin.memberships.$membershipId";
import { loader as membershipsLoader } from "~/routes/admin.memberships";
import { action as messagesAction, loader as messagesLoader } from "~/routes/admin.messages";
import { action as dataRequestAction, loader as dataRequestLoader } from "~/routes/admin.data-requests.$requestId";
import { action as dataRequestExportAction } from "~/routes/admin.data-requests.$requestId.export";
import { action as dataRequestsAction, loader as dataRequestsLoader } from "~/routes/admin.data-requests";
import { action as orderAction, loader as orderLoader } from "~/routes/admin.orders.$orderId";
import { loader as ordersLoader } from "~/routes/admin.orders";
import { loader as ordersExportLoader } from "~/routes/admin.orders.export[.csv]";
import { loader as emailsLoader } from "~/routes/admin.emails";
import { loader as emailLoader } from "~/routes/admin.emails.$mailId";
import { loader as emailFileLoader } from "~/routes/admin.emails.$mailId.pieces.$index";
import { loader as withdrawalsLoader } from "~/routes/admin.withdrawals";
import { loader as systemLoader } from "~/routes/admin.system";
import { action as failedEmailsAction, loader as failedEmailsLoader } from "~/routes/admin.system.failed-emails";
import { action as failedEventsAction, loader as failedEventsLoader } from "~/routes/admin.system.failed-events";
import { loader as statisticsLoader } from "~/routes/admin.statistics";
import { loader as voucherApiLoader } from "~/routes/api.vouchers.$code";
import { generatorFormDefaults } from "~/features/site-config/generator/generator-schema";
import { REPHRASE_TONE, wordingsOf } from "~/features/site-config/generator/wordings";
import { action as regenerateWordingsAction } from "~/routes/api.regenerate-wordings";
import { siteConfig } from "../../../site.config";
import { action as configGeneratorAction, loader as configGeneratorLoader } from "~/routes/config-generator";
import { createSignedInAccount, pageRequest, type TestAccount } from "../../support/integration/requests";
import { routeArgs, routeResult } from "../../support/integration/route-result";
import { installedTestDatabase } from "../../support/integration/installed-database";
import { testDatabaseKind } from "../../support/test-database";

interface ProtectedEntry {
  name: string;
  module: string;
  kind: "page" | "api";
  path: string;
  run: (request: Request) => unknown;
  /** What an admin gets; a made-up voucher code is let in and then found not genuine. */
  adminStatus?: number;
}

// Every loader, action and API that only admins may use. A route module that calls a guard and is
// missing here fails the last test below.
const NO_SUCH_REQUEST = "00000000-0000-4000-8000-000000000000";

/** The same request posted with an empty form, for actions. */
const posted = (request: Request) =>
  new Request(request.url, { method: "POST", headers: request.headers, body: new FormData() });

const PROTECTED: ProtectedEntry[] = [
  { name: "GET /admin", module: "admin.tsx", kind: "page", path: "/admin", run: (r) => adminLoader(routeArgs(r)) },
  {
    name: "GET /admin/clients",
    module: "admin.clients.tsx",
    kind: "page",
    path: "/admin/clients",
    run: (r) => customersLoader(routeArgs(r)),
  },
  {
    name: "GET /admin/clients/:customerId",
    module: "admin.clients.$customerId.tsx",
    kind: "page",
    path: `/admin/clients/${NO_SUCH_REQUEST}`,
    run: (r) => customerLoader(routeArgs(r, { customerId: NO_SUCH_REQUEST })),
    adminStatus: 404,
  },
  {
    name: "GET /admin/memberships",
    module: "admin.memberships.tsx",
    kind: "page",
    path: "/admin/memberships",
    run: (r) => membershipsLoader(routeArgs(r)),
  },
  {
    name: "GET /admin/memberships/:membershipId",
    module: "admin.memberships.$membershipId.tsx",
    kind: "page",
    path: `/admin/memberships/${NO_SUCH_REQUEST}`,
    run: (r) => membershipLoader(routeArgs(r, { membershipId: NO_SUCH_REQUEST })),
    adminStatus: 404,
  },
  {
    name: "POST /admin/memberships/:membershipId",
    module: "admin.memberships.$membershipId.tsx",
    kind: "page",
    path: `/admin/memberships/${NO_SUCH_REQUEST}`,
    run: (r) => membershipAction(routeArgs(posted(r), { membershipId: NO_SUCH_REQUEST })),
    adminStatus: 400,
  },
  {
    name: "GET /admin/messages",
    module: "admin.messages.tsx",
    kind: "page",
    path: "/admin/messages",
    run: (r) => messagesLoader(routeArgs(r)),
  },
  {
    name: "POST /admin/messages",
    module: "admin.messages.tsx",
    kind: "page",
    path: "/admin/messages",
    run: (r) => messagesAction(routeArgs(posted(r))),
    adminStatus: 400,
  },
  {
    name: "GET /admin/data-requests",
    module: "admin.data-requests.tsx",
    kind: "page",
    path: "/admin/data-requests",
    run: (r) => dataRequestsLoader(routeArgs(r)),
  },
  {
    name: "POST /admin/data-requests",
    module: "admin.data-requests.tsx",
    kind: "page",
    path: "/admin/data-requests",
    run: (r) => dataRequestsAction(routeArgs(posted(r))),
    adminStatus: 400,
  },
  {
    name: "GET /admin/data-requests/:requestId",
    module: "admin.data-requests.$requestId.tsx",
    kind: "page",
    path: `/admin/data-requests/${NO_SUCH_REQUEST}`,
    run: (r) => dataRequestLoader(routeArgs(r, { requestId: NO_SUCH_REQUEST })),
    adminStatus: 404,
  },
  {
    name: "POST /admin/data-requests/:requestId",
    module: "admin.data-requests.$requestId.tsx",
    kind: "page",
    path: `/admin/data-requests/${NO_SUCH_REQUEST}`,
    run: (r) => dataRequestAction(routeArgs(posted(r), { requestId: NO_SUCH_REQUEST })),
    adminStatus: 404,
  },
  {
    name: "POST /admin/data-requests/:requestId/export",
    module: "admin.data-requests.$requestId.export.ts",
    kind: "page",
    path: `/admin/data-requests/${NO_SUCH_REQUEST}/export`,
    run: (r) => dataRequestExportAction(routeArgs(posted(r), { requestId: NO_SUCH_REQUEST })),
    adminStatus: 404,
  },
  {
    name: "GET /admin/orders",
    module: "admin.orders.tsx",
    kind: "page",
    path: "/admin/orders",
    run: (r) => ordersLoader(routeArgs(r)),
  },
  {
    name: "GET /admin/orders/export.csv",
    module: "admin.orders.export[.csv].ts",
    kind: "page",
    path: "/admin/orders/export.csv",
    run: (r) => ordersExportLoader(routeArgs(r)),
  },
  {
    name: "GET /admin/orders/:orderId",
    module: "admin.orders.$orderId.tsx",
    kind: "page",
    path: `/admin/orders/${NO_SUCH_REQUEST}`,
    run: (r) => orderLoader(routeArgs(r, { orderId: NO_SUCH_REQUEST })),
    adminStatus: 404,
  },
  {
    name: "POST /admin/orders/:orderId",
    module: "admin.orders.$orderId.tsx",
    kind: "page",
    path: `/admin/orders/${NO_SUCH_REQUEST}`,
    run: (r) => orderAction(routeArgs(posted(r), { orderId: NO_SUCH_REQUEST })),
    adminStatus: 400,
  },
  {
    name: "GET /admin/emails",
    module: "admin.emails.tsx",
    kind: "page",
    path: "/admin/emails",
    run: (r) => emailsLoader(routeArgs(r)),
  },
  {
    name: "GET /admin/emails/:mailId",
    module: "admin.emails.$mailId.tsx",
    kind: "page",
    path: `/admin/emails/${NO_SUCH_REQUEST}`,
    run: (r) => emailLoader(routeArgs(r, { mailId: NO_SUCH_REQUEST })),
    adminStatus: 404,
  },
  {
    name: "GET /admin/emails/:mailId/pieces/:index",
    module: "admin.emails.$mailId.pieces.$index.ts",
    kind: "page",
    path: `/admin/emails/${NO_SUCH_REQUEST}/pieces/0`,
    run: (r) => emailFileLoader(routeArgs(r, { mailId: NO_SUCH_REQUEST, index: "0" })),
    adminStatus: 404,
  },
  {
    name: "GET /admin/system",
    module: "admin.system.tsx",
    kind: "page",
    path: "/admin/system",
    run: (r) => systemLoader(routeArgs(r)),
  },
  {
    name: "GET /admin/system/failed-emails",
    module: "admin.system.failed-emails.tsx",
    kind: "page",
    path: "/admin/system/failed-emails",
    run: (r) => failedEmailsLoader(routeArgs(r)),
  },
  {
    name: "POST /admin/system/failed-emails",
    module: "admin.system.failed-emails.tsx",
    kind: "page",
    path: "/admin/system/failed-emails",
    run: (r) => failedEmailsAction(routeArgs(posted(r))),
    adminStatus: 400,
  },
  {
    name: "GET /admin/system/failed-events",
    module: "admin.system.failed-events.tsx",
    kind: "page",
    path: "/admin/system/failed-events",
    run: (r) => failedEventsLoader(routeArgs(r)),
  },
  {
    name: "POST /admin/system/failed-events",
    module: "admin.system.failed-events.tsx",
    kind: "page",
    path: "/admin/system/failed-events",
    run: (r) => failedEventsAction(routeArgs(posted(r))),
    adminStatus: 400,
  },
  {
    name: "GET /admin/withdrawals",
    module: "admin.withdrawals.tsx",
    kind: "page",
    path: "/admin/withdrawals",
    run: (r) => withdrawalsLoader(routeArgs(r)),
  },
  {
    name: "GET /admin/statistics",
    module: "admin.statistics.tsx",
    kind: "page",
    path: "/admin/statistics",
    run: (r) => statisticsLoader(routeArgs(r)),
  },
  {
    name: "GET /config-generator",
    module: "config-generator.tsx",
    kind: "page",
    path: "/config-generator",
    run: (r) => configGeneratorLoader(routeArgs(r)),
  },
  {
    name: "POST /config-generator",
    module: "config-generator.tsx",
    kind: "page",
    path: "/config-generator",
    run: (r) =>
      configGeneratorAction(
        routeArgs(withForm(r, { ...generatorFormDefaults(siteConfig), companyName: "Skyway Travel" })),
      ),
  },
  {
    name: "POST /api/regenerate-wordings",
    module: "api.regenerate-wordings.ts",
    kind: "api",
    path: "/api/regenerate-wordings",
    run: (r) =>
      regenerateWordingsAction(
        routeArgs(
          withJson(r, {
            currentContent: wordingsOf(siteConfig),
            brandInfo: { companyName: "Skyway", tone: REPHRASE_TONE },
          }),
        ),
      ),
  },
  {
    name: "GET /api/vouchers/:code",
    module: "api.vouchers.$code.ts",
    kind: "api",
    path: "/api/vouchers/made-up",
    run: (r) => voucherApiLoader(routeArgs(r, { code: "made-up" })),
    adminStatus: 404,
  },
];

/** `request` as a POST of a form, keeping its cookie. */
function withForm(request: Request, fields: Record<string, string>) {
  return new Request(request.url, { method: "POST", headers: request.headers, body: new URLSearchParams(fields) });
}

/** `request` as a POST of a JSON body, keeping its cookie. */
function withJson(request: Request, body: unknown) {
  const headers = new Headers(request.headers);
  headers.set("Content-Type", "application/json");
  return new Request(request.url, { method: "POST", headers, body: JSON.stringify(body) });
}

const ANONYMOUS_REFUSAL = { page: { status: 302, location: "/auth" }, api: { status: 401, location: null } } as const;

const REFUSALS = {
  anonymous: ANONYMOUS_REFUSAL,
  member: { page: { status: 302, location: "/" }, api: { status: 403, location: null } },
  // An admin's session cookie with its signature tampered with, and an admin's session past its expiry.
  forged: ANONYMOUS_REFUSAL,
  expired: ANONYMOUS_REFUSAL,
} as const;
type Visitor = keyof typeof REFUSALS;

const db = installedTestDatabase();
let member: TestAccount;
let admin: TestAccount;
let expiredAdmin: TestAccount;

beforeAll(async () => {
  member = await createSignedInAccount(db());
  admin = await createSignedInAccount(db(), { admin: true });
  expiredAdmin = await createSignedInAccount(db(), { admin: true });
  await db()
    .update(session)
    .set({ expiresAt: new Date(Date.now() - 60_000) })
    .where(eq(session.userId, sql`(select id from "user" where email = ${expiredAdmin.email})`));
});

function cookieOf(visitor: Visitor): string | undefined {
  switch (visitor) {
    case "anonymous":
      return undefined;
    case "member":
      return member.cookie;
    case "forged": {
      const forged = admin.cookie.replace(/=([^.;]+)\.([^;]+)/, "=$1.forged-signature");
      expect(forged).not.toBe(admin.cookie);
      return forged;
    }
    case "expired":
      return expiredAdmin.cookie;
  }
}

const cases = PROTECTED.flatMap((entry) =>
  (Object.keys(REFUSALS) as Visitor[]).map((visitor) => ({ ...entry, visitor })),
);

describe(`admin-only routes on ${testDatabaseKind()}`, () => {
  it.each(cases)("$name refuses a $visitor visitor", async ({ kind, path, run, visitor }) => {
    const result = await routeResult(() => run(pageRequest(path, { cookie: cookieOf(visitor) })));
    expect({ status: result.status, location: result.location }).toEqual(REFUSALS[visitor][kind]);
  });

  it.each(PROTECTED)("$name lets an admin in", async ({ path, run, adminStatus = 200 }) => {
    const result = await routeResult(() => run(pageRequest(path, { cookie: admin.cookie })));
    expect(result.status).toBe(adminStatus);
  });

  it("lists every route module that uses an access guard", () => {
    const guarded = readdirSync("app/routes").filter((file) =>
      /require(User|Admin|AdminApi)\(/.test(readFileSync(`app/routes/${file}`, "utf8")),
    );
    expect(guarded.sort()).toEqual([...new Set(PROTECTED.map((entry) => entry.module))].sort());
  });
});
