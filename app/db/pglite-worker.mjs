// The embedded database's thread (app/db/pglite-thread.server.ts starts it): PGlite runs here, off
// the HTTP server's event loop, and answers the PostgreSQL wire protocol that node-postgres speaks
// over this thread's port. Plain JavaScript: worker threads load files as they are, unbundled.
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

// The migrations create pg_trgm (PostgreSQL ships it as a contrib module; PGlite loads it on demand).
const options = { extensions: { pg_trgm } };
const db = workerData.dataDir ? await PGlite.create(workerData.dataDir, options) : await PGlite.create(options);

// One message at a time, in order: each reply must follow the bytes it answers.
let previous = Promise.resolve();
parentPort.on("message", (message) => {
  previous = previous.then(async () => {
    if (message === "close") {
      await db.close();
      parentPort.close();
      return;
    }
    const reply = await db.execProtocolRaw(new Uint8Array(message));
    parentPort.postMessage(reply, [reply.buffer]);
  });
});
parentPort.postMessage("ready");
