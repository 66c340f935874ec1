import { subYears } from "date-fns";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installDatabase, openDatabase } from "~/db/client.server";
import { contactMessages, jobRuns } from "~/db/schema";
import type { SystemFacts } from "~/features/admin/system/system-facts.server";
import { runBilling } from "~/features/memberships/billing-job.server";
import { sandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { RETENTION_LOCK_ID, runRetention } from "~/features/privacy/retention-job.server";
import { JOB_RUN_STALE_AFTER_MS, JOB_RUNS_KEPT, markInterruptedRuns, recordedRun } from "~/lib/job-runs.server";
import { loader as systemLoader } from "~/routes/admin.system";
import { insertContactMessage } from "../../support/integration/personal-data-fixtures";
import { createSignedInAccount, pageRequest, type TestAccount } from "../../support/integration/requests";
import { routeArgs, routeResult } from "../../support/integration/route-result";
import { openTestDatabase, testDatabaseKind, type TestDatabase } from "../../support/test-database";

// The scheduled jobs record each run (ADR 026) for the system page: when, how long, what it did,
// and whether it did it, left it to another instance or failed.

const kind = testDatabaseKind();
let handle: TestDatabase;
const db = () => handle.db;
let admin: TestAccount;

beforeAll(async () => {
  handle = await openTestDatabase();
  installDatabase(handle);
  admin = await createSignedInAccount(db(), { admin: true });
});

afterAll(async () => {
  installDatabase(undefined);
  await handle.destroy();
});

const runsOf = (job: "retention" | "billing") =>
  db().select().from(jobRuns).where(eq(jobRuns.job, job)).orderBy(jobRuns.startedAt);

async function systemJobs() {
  const result = await routeResult(() =>
    systemLoader(routeArgs(pageRequest("/admin/system", { cookie: admin.cookie }))),
  );
  return (result.data as { facts: SystemFacts }).facts.jobs;
}

describe(`the jobs' runs on ${kind}`, () => {
  it("records a retention run with what it removed and how long it took; a dry run is not recorded", async () => {
    await db().delete(jobRuns);
    const now = new Date();
    await insertContactMessage(db(), { createdAt: subYears(now, 3) });
    expect(await runRetention(db(), { now, dryRun: true })).toMatchObject({ ran: true, dryRun: true });
    expect(await runsOf("retention")).toEqual([]);

    const before = Date.now();
    await runRetention(db(), { now });
    const [run] = await runsOf("retention");
    expect(run).toMatchObject({ outcome: "done", error: null, counts: { contactMessages: 1, unpaidOrders: 0 } });
    expect(run!.startedAt.getTime()).toBeGreaterThanOrEqual(before - 1_000);
    expect(run!.finishedAt!.getTime()).toBeGreaterThanOrEqual(run!.startedAt.getTime());
    expect(await db().select().from(contactMessages)).toEqual([]);

    const [retention] = await systemJobs();
    expect(retention).toMatchObject({ job: "retention", latestWork: { id: run!.id, outcome: "done" } });
    expect(retention!.runs.map((shown) => shown.id)).toEqual([run!.id]);
  });

  it("records a billing run with its counts", async () => {
    await db().delete(jobRuns);
    await runBilling(db(), sandboxGateway, { now: new Date(), origin: "https://site.test" });
    expect(await runsOf("billing")).toMatchObject([
      { outcome: "done", counts: { trialReminders: 0, charged: 0, gatewayErrors: 0 }, error: null },
    ]);
  });

  it.runIf(kind === "postgres")("records a run left to another instance, which held the job's lock", async () => {
    await db().delete(jobRuns);
    const other = await openDatabase({ kind: "postgres", url: handle.url! });
    try {
      await other.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(${RETENTION_LOCK_ID})`);
        expect(await runRetention(db(), { now: new Date() })).toEqual({ ran: false });
      });
    } finally {
      await other.close();
    }
    expect(await runsOf("retention")).toMatchObject([{ outcome: "skipped", counts: {}, error: null }]);
  });

  it("records a run as started before it does anything, so that a run whose process dies leaves a trace", async () => {
    await db().delete(jobRuns);
    let seenWhileRunning: unknown[] = [];
    await recordedRun(
      db(),
      "billing",
      async () => {
        seenWhileRunning = await runsOf("billing");
      },
      () => ({ outcome: "done", counts: {} }),
    );
    expect(seenWhileRunning).toMatchObject([{ outcome: "started", finishedAt: null, error: null }]);
    const [ended] = await runsOf("billing");
    expect(ended).toMatchObject({ outcome: "done" });
    expect(ended!.finishedAt).not.toBeNull();

    const [shown] = await systemJobs();
    expect(shown).toMatchObject({ job: "retention", latestWork: null });
  });

  it("marks a run still started long after it began as interrupted, and leaves a recent one alone", async () => {
    await db().delete(jobRuns);
    const now = new Date("2027-01-31T10:00:00Z");
    const startedAt = (msAgo: number) => new Date(now.getTime() - msAgo);
    await db()
      .insert(jobRuns)
      .values([
        { job: "billing", outcome: "started", startedAt: startedAt(JOB_RUN_STALE_AFTER_MS + 1) },
        { job: "billing", outcome: "started", startedAt: startedAt(60_000) },
        { job: "retention", outcome: "done", startedAt: startedAt(JOB_RUN_STALE_AFTER_MS * 2), finishedAt: now },
      ]);
    expect(await markInterruptedRuns(db(), now)).toBe(1);
    expect((await runsOf("billing")).map((run) => run.outcome).sort()).toEqual(["interrupted", "started"]);
    expect(await markInterruptedRuns(db(), now)).toBe(0);
    const billing = (await systemJobs()).find((job) => job.job === "billing");
    expect(billing!.latestWork).toMatchObject({ outcome: "interrupted", finishedAt: null });
  });

  it("records a failed run with its error, which still reaches the caller", async () => {
    await db().delete(jobRuns);
    const failing = recordedRun(
      db(),
      "billing",
      () => Promise.reject(new Error("the gateway's certificate expired")),
      () => ({ outcome: "done", counts: {} }),
    );
    await expect(failing).rejects.toThrow("the gateway's certificate expired");
    expect(await runsOf("billing")).toMatchObject([
      { outcome: "failed", counts: null, error: "the gateway's certificate expired" },
    ]);
  });

  it(`keeps the last ${JOB_RUNS_KEPT} runs of each outcome, so that skipped runs never push the last real one out`, async () => {
    await db().delete(jobRuns);
    // Runs come minutes apart; here a few milliseconds keep their start times apart.
    const run = async (outcome: "done" | "skipped", index: number) => {
      await new Promise((resolve) => setTimeout(resolve, 2));
      await recordedRun(
        db(),
        "retention",
        async () => index,
        (value) => ({ outcome, counts: { contactMessages: value } }),
      );
    };
    for (let index = 0; index < JOB_RUNS_KEPT + 3; index++) await run("done", index);
    for (let index = 0; index < JOB_RUNS_KEPT + 2; index++) await run("skipped", index);

    const count = async (outcome: "done" | "skipped") =>
      (
        await db()
          .select()
          .from(jobRuns)
          .where(and(eq(jobRuns.job, "retention"), eq(jobRuns.outcome, outcome)))
      ).length;
    expect(await count("done")).toBe(JOB_RUNS_KEPT);
    expect(await count("skipped")).toBe(JOB_RUNS_KEPT);

    const [retention] = await systemJobs();
    // The page shows the latest runs (all skipped now) and, apart, the latest that did the work.
    expect(retention!.runs.every((shown) => shown.outcome === "skipped")).toBe(true);
    expect(retention!.latestWork).toMatchObject({
      outcome: "done",
      counts: { contactMessages: JOB_RUNS_KEPT + 2 },
    });
  });
});
