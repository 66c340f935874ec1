import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { PgliteThread } from "./pglite-thread.server";

const opened: PgliteThread[] = [];

async function startThread() {
  const thread = await PgliteThread.start(undefined);
  opened.push(thread);
  return thread;
}

async function connectTo(thread: PgliteThread) {
  const client = new pg.Client({ stream: thread.connect, user: "postgres", database: "postgres" });
  // A connection the thread dropped reports it here too; the tests read it from the query.
  client.on("error", () => {});
  await client.connect();
  return client;
}

/** The protocol's Terminate message, which node-postgres writes on its own when a client ends. */
const TERMINATE = Buffer.from([0x58, 0, 0, 0, 4]);

afterEach(async () => {
  for (const thread of opened.splice(0)) await thread.close().catch(() => {});
}, 30_000);

describe("PgliteThread", { timeout: 30_000 }, () => {
  it("answers queries over a connection", async () => {
    const client = await connectTo(await startThread());
    expect((await client.query("select $1::int + 1 as sum", [41])).rows).toEqual([{ sum: 42 }]);
  });

  // PGlite takes a Terminate behind another message for the end of its one backend, and loops on
  // the next message until the process aborts. A connection's end must not end the database.
  it("answers the next connection after one ended right behind a query", async () => {
    const thread = await startThread();
    const client = await connectTo(thread);
    const answered = client.query("select 1 as one");
    (client as unknown as { connection: { stream: NodeJS.WritableStream } }).connection.stream.write(TERMINATE);
    expect((await answered).rows).toEqual([{ one: 1 }]);
    const next = await connectTo(thread);
    expect((await next.query("select 2 as two")).rows).toEqual([{ two: 2 }]);
  });

  // A thread that died answers nothing: what is sent to it must fail, not wait for ever.
  it("rejects a connection, and a second close, once its thread has ended", async () => {
    const thread = await startThread();
    await thread.close();
    await expect(connectTo(thread)).rejects.toThrow("thread exited");
    await expect(thread.close()).rejects.toThrow("thread exited");
  });
});
