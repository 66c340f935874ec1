import { afterEach, describe, expect, it } from "vitest";
import { installDatabase } from "~/db/client.server";
import { loader } from "~/routes/healthz";
import { openTestDatabase, testDatabaseKind } from "../../support/test-database";

async function healthz() {
  const result = await loader();
  return { status: result.init?.status, body: result.data };
}

afterEach(() => installDatabase(undefined));

describe(`GET /healthz on ${testDatabaseKind()}`, () => {
  it("answers 200 while the database answers", async () => {
    const handle = await openTestDatabase();
    installDatabase(handle);
    try {
      expect(await healthz()).toEqual({ status: 200, body: { status: "ok", database: "reachable" } });
    } finally {
      await handle.destroy();
    }
  });

  it("answers 503 once the database is gone", async () => {
    const handle = await openTestDatabase();
    installDatabase(handle);
    await handle.destroy();
    expect(await healthz()).toEqual({ status: 503, body: { status: "unavailable", database: "unreachable" } });
  });
});
