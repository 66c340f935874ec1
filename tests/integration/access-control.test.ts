import { readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installDatabase } from "~/db/client.server";
import { requireAdminApi } from "~/features/auth/guards.server";
import { loader as adminLoader } from "~/routes/admin";
import { loader as configGeneratorLoader } from "~/routes/config-generator";
import { createSignedInAccount, pageRequest, type TestAccount } from "./accounts";
import { routeArgs, routeResult } from "./route-result";
import { openTestDatabase, testDatabaseKind, type TestDatabase } from "./test-database";

interface ProtectedEntry {
  name: string;
  /** The route module, or null for the guard itself standing in for an admin API. */
  module: string | null;
  kind: "page" | "api";
  path: string;
  run: (request: Request) => unknown;
}

// Every loader, action and API that only admins may use. A route module that calls a guard and is
// missing here fails the last test below.
const PROTECTED: ProtectedEntry[] = [
  { name: "GET /admin", module: "admin.tsx", kind: "page", path: "/admin", run: (r) => adminLoader(routeArgs(r)) },
  {
    name: "GET /config-generator",
    module: "config-generator.tsx",
    kind: "page",
    path: "/config-generator",
    run: (r) => configGeneratorLoader(routeArgs(r)),
  },
  { name: "an admin API (requireAdminApi)", module: null, kind: "api", path: "/api/admin", run: requireAdminApi },
];

const REFUSALS = {
  anonymous: { page: { status: 302, location: "/auth" }, api: { status: 401, location: null } },
  member: { page: { status: 302, location: "/" }, api: { status: 403, location: null } },
} as const;

let handle: TestDatabase;
let member: TestAccount;
let admin: TestAccount;

beforeAll(async () => {
  handle = await openTestDatabase();
  installDatabase(handle);
  member = await createSignedInAccount(handle.db);
  admin = await createSignedInAccount(handle.db, { admin: true });
});

afterAll(async () => {
  installDatabase(undefined);
  await handle.destroy();
});

const cases = PROTECTED.flatMap((entry) =>
  (["anonymous", "member"] as const).map((visitor) => ({ ...entry, visitor })),
);

describe(`admin-only routes on ${testDatabaseKind()}`, () => {
  it.each(cases)("$name refuses a $visitor visitor", async ({ kind, path, run, visitor }) => {
    const cookie = visitor === "member" ? member.cookie : undefined;
    const result = await routeResult(() => run(pageRequest(path, { cookie })));
    expect({ status: result.status, location: result.location }).toEqual(REFUSALS[visitor][kind]);
  });

  it.each(PROTECTED)("$name lets an admin in", async ({ path, run }) => {
    const result = await routeResult(() => run(pageRequest(path, { cookie: admin.cookie })));
    expect(result.status).toBe(200);
  });

  it("a forged or stale session cookie counts as anonymous", async () => {
    const forged = admin.cookie.replace(/=([^.]+)/, "=forged");
    const result = await routeResult(() => adminLoader(routeArgs(pageRequest("/admin", { cookie: forged }))));
    expect(result.location).toBe("/auth");
  });

  it("lists every route module that uses an access guard", () => {
    const guarded = readdirSync("app/routes").filter((file) =>
      /require(User|Admin|AdminApi)\(/.test(readFileSync(`app/routes/${file}`, "utf8")),
    );
    expect(guarded.sort()).toEqual(
      PROTECTED.map((entry) => entry.module)
        .filter((module) => module !== null)
        .sort(),
    );
  });
});
