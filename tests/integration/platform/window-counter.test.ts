import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countingQueries } from "~/db/query-count.server";
import { WindowCounter } from "~/lib/window-counter.server";
import { openTestDatabase, testDatabaseKind, type TestDatabase } from "../../support/test-database";

const kind = testDatabaseKind();
const WINDOW_MS = 60_000;
const start = Date.UTC(2026, 0, 1, 12);

let handle: TestDatabase;
let counter: WindowCounter;

beforeAll(async () => {
  handle = await openTestDatabase(kind, { countQueries: true });
  counter = new WindowCounter(handle.db, WINDOW_MS);
});

afterAll(async () => {
  await handle.destroy();
});

const ascending = (a: number, b: number) => a - b;

/** Adds `times` requests to each key, all at once, and returns each key's counts in the order asked. */
async function addTogether(requests: Record<string, number>, now: number) {
  const keys = Object.entries(requests).flatMap(([key, times]) => Array<string>(times).fill(key));
  const counted = await Promise.all(keys.map((key) => counter.add(key, now)));
  const byKey: Record<string, number[]> = {};
  keys.forEach((key, index) => (byKey[key] ??= []).push(counted[index]!.count));
  return { byKey, counted };
}

describe(`request counters on ${kind}`, () => {
  it("gives requests arriving together each its own place in its key's window", async () => {
    const { byKey, counted } = await addTogether({ "a:1": 12, "a:2": 1, "a:3": 5 }, start);
    expect(byKey["a:1"]!.toSorted(ascending)).toEqual(Array.from({ length: 12 }, (_, index) => index + 1));
    expect(byKey["a:2"]).toEqual([1]);
    expect(byKey["a:3"]!.toSorted(ascending)).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(counted.map((count) => count.windowStart))).toEqual(new Set([start]));
  });

  it("sends the requests that arrive while a statement is under way together in the next one", async () => {
    const tally = { count: 0 };
    const { byKey } = await countingQueries(tally, () => addTogether({ "b:1": 20, "b:2": 20 }, start));
    // The first request went at once, alone; the 39 that came while it was under way went in one.
    expect(tally.count).toBe(2);
    expect(Math.max(...byKey["b:1"]!, ...byKey["b:2"]!)).toBe(20);
  });

  it("goes on counting in the same window, and starts a key afresh once its window is over", async () => {
    await addTogether({ "c:1": 3, "c:2": 3 }, start);
    const later = await addTogether({ "c:1": 2 }, start + WINDOW_MS - 1);
    expect(later.byKey["c:1"]!.toSorted(ascending)).toEqual([4, 5]);
    expect(later.counted.every((count) => count.windowStart === start)).toBe(true);

    const next = await addTogether({ "c:1": 2, "c:2": 1 }, start + WINDOW_MS);
    expect(next.byKey["c:1"]!.toSorted(ascending)).toEqual([1, 2]);
    expect(next.byKey["c:2"]).toEqual([1]);
    expect(next.counted.every((count) => count.windowStart === start + WINDOW_MS)).toBe(true);
  });

  it("rejects every request of a statement that fails, and counts the next ones", async () => {
    await handle.db.execute(sql`alter table rate_limit rename to rate_limit_away`);
    const failed = await Promise.allSettled([counter.add("d:1", start), counter.add("d:1", start)]);
    await handle.db.execute(sql`alter table rate_limit_away rename to rate_limit`);
    expect(failed.map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);
    const { byKey } = await addTogether({ "d:1": 2 }, start);
    expect(byKey["d:1"]!.toSorted(ascending)).toEqual([1, 2]);
  });
});
