import { resolve } from "node:path";
import { Duplex } from "node:stream";
import { Worker } from "node:worker_threads";

// Resolved from the working directory, like the migrations: the server bundle lives elsewhere.
const WORKER_FILE = resolve("app/db/pglite-worker.mjs");

/**
 * A connection to the embedded database's thread, as node-postgres uses a socket: the protocol
 * messages one query writes (parse, bind, execute, sync) go over together in one message.
 */
class ThreadSocket extends Duplex {
  #outgoing: Uint8Array[] = [];

  constructor(private readonly thread: PgliteThread) {
    super();
  }

  connect() {
    queueMicrotask(() => this.emit("connect"));
    return this;
  }

  // A socket's options, which a thread has no use for.
  setNoDelay() {
    return this;
  }

  setKeepAlive() {
    return this;
  }

  ref() {
    return this;
  }

  unref() {
    return this;
  }

  override _read() {}

  override _write(chunk: Uint8Array, _encoding: BufferEncoding, done: (error?: Error | null) => void) {
    this.#outgoing.push(chunk);
    if (this.#outgoing.length === 1) queueMicrotask(() => this.#send());
    done();
  }

  #send() {
    const buffer = new ArrayBuffer(this.#outgoing.reduce((total, chunk) => total + chunk.byteLength, 0));
    const bytes = new Uint8Array(buffer);
    let offset = 0;
    for (const chunk of this.#outgoing) {
      bytes.set(chunk, offset);
      offset += chunk.byteLength;
    }
    this.#outgoing = [];
    this.thread.send(this, buffer);
  }

  receive(bytes: Uint8Array) {
    if (bytes.byteLength > 0) this.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }
}

/**
 * PGlite on a worker thread of its own (ADR 021): its WebAssembly runs a query synchronously, and on
 * the HTTP server's thread every query stopped every request. The thread answers the PostgreSQL
 * wire protocol, so the app reaches it through node-postgres like a PostgreSQL server, over one
 * connection (PGlite is one backend).
 */
export class PgliteThread {
  readonly #worker: Worker;
  readonly #exited: Promise<void>;
  #connection: ThreadSocket | undefined;

  private constructor(worker: Worker) {
    this.#worker = worker;
    this.#exited = new Promise((resolve) => worker.once("exit", () => resolve()));
    worker.on("message", (bytes: Uint8Array) => this.#connection?.receive(bytes));
    worker.on("error", (error) => this.#connection?.destroy(error));
  }

  /** Opens the database in `dataDir`, or in memory; resolves once it is ready for a connection. */
  static async start(dataDir: string | undefined): Promise<PgliteThread> {
    const worker = new Worker(WORKER_FILE, { workerData: { dataDir } });
    await new Promise<void>((resolve, reject) => {
      const failed = (error: unknown) => {
        worker.off("message", ready);
        reject(error instanceof Error ? error : new Error(String(error)));
      };
      const exited = (code: number) => failed(new Error(`the embedded database's thread exited (code ${code})`));
      const ready = () => {
        worker.off("error", failed).off("exit", exited);
        resolve();
      };
      worker.once("error", failed).once("exit", exited).once("message", ready);
    });
    return new PgliteThread(worker);
  }

  /** node-postgres's `stream` option: the one connection to this database. */
  connect = (): Duplex => {
    this.#connection?.destroy();
    this.#connection = new ThreadSocket(this);
    return this.#connection;
  };

  send(from: ThreadSocket, bytes: ArrayBuffer) {
    if (from === this.#connection) this.#worker.postMessage(bytes, [bytes]);
  }

  /** Closes the database (PGlite writes what it holds) and ends the thread. */
  async close() {
    this.#connection = undefined;
    this.#worker.postMessage("close");
    await this.#exited;
  }
}
