import { subHours } from "date-fns";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orders } from "~/db/schema";
import { cliTestDatabase, DATA_DIR_IN_USE, runNpmScript } from "../../support/integration/npm-script";
import { book } from "../../support/integration/personal-data-fixtures";

const database = cliTestDatabase();

const retentionCli = (...args: string[]) => runNpmScript("retention", args, database.env());

async function orderExists(orderId: string) {
  return (await database.db().select().from(orders).where(eq(orders.id, orderId))).length === 1;
}

describe(`npm run retention on ${database.kind}`, () => {
  it("counts without changing anything on --dry-run, then removes what it counted", { timeout: 120_000 }, async () => {
    const stale = await book(database.db(), { pay: "declined", createdAt: subHours(new Date(), 49) });
    const fresh = await book(database.db(), { createdAt: subHours(new Date(), 47) });

    if (database.kind === "pglite") {
      const refused = await retentionCli("--dry-run");
      expect(refused.code).toBe(1);
      expect(refused.output).toMatch(DATA_DIR_IN_USE);
    }
    await database.release();

    const counts = [
      "  unpaid orders older than 48 hours: 1",
      "  their order history entries: 1",
      "  their declined payment attempts: 1",
      "  customers deleted (no order left): 1",
      "  customers anonymised (last order over 6 years ago): 0",
      "  contact messages older than 2 years: 0",
      "  unsubscribe requests older than 2 years: 0",
      "  withdrawal statements older than 6 years: 0",
      "  rate-limit counters idle for 24 hours: 0",
    ].join("\n");
    expect(await retentionCli("--dry-run")).toEqual({
      code: 0,
      output: `Dry run, nothing was changed. A run now would remove:\n${counts}\n`,
    });
    await database.reopen();
    expect(await orderExists(stale.id)).toBe(true);
    await database.release();

    expect(await retentionCli()).toEqual({ code: 0, output: `Removed:\n${counts}\n` });
    await database.reopen();
    expect(await orderExists(stale.id)).toBe(false);
    expect(await orderExists(fresh.id)).toBe(true);
  });

  it("refuses an argument it does not know", async () => {
    expect(await retentionCli("--dryrun")).toEqual({
      code: 1,
      output: "Usage: npm run retention   or   npm run retention -- --dry-run\n",
    });
  });
});
