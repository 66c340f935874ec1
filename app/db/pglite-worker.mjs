// The embedded database's thread (app/db/pglite-thread.server.ts starts it): PGlite runs here, off
// the HTTP server's event loop, and answers the PostgreSQL wire protocol that node-postgres speaks
// over this thread's port. Plain JavaScript: worker threads load files as they are, unbundled.
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

// The migrations create pg_trgm (PostgreSQL ships it as a contrib module; PGlite loads it on demand).
const options = { extensions: { pg_trgm } };
const db = workerData.dataDir ? await PGlite.create(workerData.dataDir, options) : await PGlite.create(options);

/**
 * A new connection must find the session a new PostgreSQL backend would: the previous connection's
 * transaction rolled back, its prepared statements, settings and advisory locks gone.
 */
async function startSession() {
  // Outside a transaction, ROLLBACK only warns; DISCARD ALL cannot run inside one.
  await db.exec("rollback");
  await db.exec("discard all");
}

async function answer(message) {
  if (message === "session") {
    await startSession();
    return "done";
  }
  if (message === "close") {
    await db.close();
    return "done";
  }
  return execute(new Uint8Array(message));
}

/**
 * Runs protocol messages and returns PGlite's reply in a buffer of its own. PGlite's plain raw call
 * also parses every reply into messages that it keeps until its next `exec`: query after query they
 * filled this thread's heap until it ran out. Its streaming form hands the bytes over and keeps
 * nothing; they are views into its memory, so they are copied.
 */
async function execute(message) {
  const chunks = [];
  await db.execProtocolRawStream(message, { onRawData: (bytes) => chunks.push(bytes.slice()) });
  if (chunks.length === 1) return chunks[0];
  const reply = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    reply.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return reply;
}

// One message at a time, in order, and exactly one reply to each: the other side matches replies to
// what it sent by their order. A failure is a reply too, or every later message would wait forever.
let previous = Promise.resolve();
parentPort.on("message", (message) => {
  previous = previous.then(async () => {
    try {
      const reply = await answer(message);
      parentPort.postMessage(reply, reply instanceof Uint8Array ? [reply.buffer] : []);
    } catch (error) {
      parentPort.postMessage({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    }
  });
});
parentPort.postMessage("ready");
