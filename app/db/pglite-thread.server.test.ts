import { execFile } from "node:child_process";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgliteThread } from "./pglite-thread.server";

// One thread for the tests that leave it running: each starts in seconds.
let thread: PgliteThread;

beforeAll(async () => {
  thread = await PgliteThread.start(undefined);
}, 60_000);

afterAll(() => thread.close(), 60_000);

async function connectTo(thread: PgliteThread) {
  const client = new pg.Client({ stream: thread.connect, user: "postgres", database: "postgres" });
  // A connection the thread dropped reports it here too; the tests read it from the query.
  client.on("error", () => {});
  await client.connect();
  return client;
}

/** The protocol's Terminate message, which node-postgres writes on its own when a client ends. */
const TERMINATE = Buffer.from([0x58, 0, 0, 0, 4]);

describe("PgliteThread", { timeout: 60_000 }, () => {
  // The startup's reply is a view into PGlite's 1 MB receive buffer: posted as it is, it would move
  // that whole buffer, taken from PGlite, for a few hundred bytes.
  it("sends each reply in a buffer of its own size", async () => {
    const carried: number[] = [];
    const client = new pg.Client({
      stream: () =>
        thread.connect().on("data", (chunk: Buffer) => carried.push(chunk.buffer.byteLength - chunk.byteLength)),
      user: "postgres",
      database: "postgres",
    });
    client.on("error", () => {});
    await client.connect();
    await client.query("select 1");
    expect(carried.length).toBeGreaterThan(1);
    expect(carried.every((extra) => extra === 0)).toBe(true);
    await client.end();
  });

  it("gives a new connection a new session: the last one's transaction rolled back, its locks, statements and settings gone", async () => {
    const first = await connectTo(thread);
    await first.query("create table kept (id int)");
    await first.query("set application_name = 'first'");
    await first.query("select pg_advisory_lock(7)");
    await first.query({ name: "named", text: "select 1 as one" });
    await first.query("begin");
    await first.query("insert into kept values (1)");
    // Dropped mid-transaction, as the pool drops a connection that failed.
    const next = await connectTo(thread);
    await expect(first.query("commit")).rejects.toThrow();
    expect((await next.query("select count(*)::int as n from kept")).rows).toEqual([{ n: 0 }]);
    expect((await next.query("select pg_try_advisory_lock(7) as locked")).rows).toEqual([{ locked: true }]);
    expect((await next.query({ name: "named", text: "select 2 as two" })).rows).toEqual([{ two: 2 }]);
    expect((await next.query("show application_name")).rows).toEqual([{ application_name: "" }]);
  });

  // PGlite takes a Terminate behind another message for the end of its one backend, and loops on
  // the next message until the process aborts. A connection's end must not end the database.
  it("answers the next connection after one ended right behind a query", async () => {
    const client = await connectTo(thread);
    const answered = client.query("select 1 as one");
    (client as unknown as { connection: { stream: NodeJS.WritableStream } }).connection.stream.write(TERMINATE);
    expect((await answered).rows).toEqual([{ one: 1 }]);
    const next = await connectTo(thread);
    expect((await next.query("select 2 as two")).rows).toEqual([{ two: 2 }]);
  });

  // PGlite's plain raw call kept every reply it had parsed. A worker thread has the heap limit of its
  // process (192 MB under `npm run serve`), which a few hundred thousand queries filled, and the
  // thread died. In a 48 MB heap, a thousand replies of 100 kB would fill it twice over.
  it("keeps nothing of the replies it sent", async () => {
    const queries = `(async () => {
      const { default: pg } = await import("pg");
      const { PgliteThread } = await import("./app/db/pglite-thread.server.ts");
      const thread = await PgliteThread.start(undefined);
      const client = new pg.Client({ stream: thread.connect, user: "postgres", database: "postgres" });
      await client.connect();
      for (let i = 0; i < 1000; i++) await client.query("select repeat('x', 100000)");
      await client.end();
      await thread.close();
      console.log("answered");
    })();`;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--max-old-space-size=48", "--import", "tsx", "--eval", queries],
      { env: { ...process.env, NODE_OPTIONS: "" } },
    );
    expect(stdout.trim()).toBe("answered");
  });

  // A thread that died answers nothing: what is sent to it must fail, not wait for ever.
  it("rejects a connection, and a second close, once its thread has ended", async () => {
    const ended = await PgliteThread.start(undefined);
    await ended.close();
    await expect(connectTo(ended)).rejects.toThrow("thread exited");
    await expect(ended.close()).rejects.toThrow("thread exited");
  });
});
