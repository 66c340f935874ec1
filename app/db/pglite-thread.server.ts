import { resolve } from "node:path";
import { Duplex } from "node:stream";
import { Worker } from "node:worker_threads";

// Resolved from the working directory, like the migrations: the server bundle lives elsewhere.
const WORKER_FILE = resolve("app/db/pglite-worker.mjs");

/** The first byte of the protocol's Terminate message ("X"). */
const TERMINATE = 0x58;

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
    // A Terminate ends this connection, which the stream's end says, never the one backend that all
    // connections share: behind another message, PGlite would end that backend and then loop on the
    // next message until the process aborts. node-postgres writes it on its own, as every message.
    if (chunk[0] !== TERMINATE) {
      this.#outgoing.push(chunk);
      if (this.#outgoing.length === 1) queueMicrotask(() => this.#send());
    }
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

  // Ending the connection ends both ways, as a socket closes, which node-postgres waits for.
  override _final(done: (error?: Error | null) => void) {
    this.push(null);
    done();
  }

  receive(bytes: Uint8Array) {
    if (bytes.byteLength > 0 && !this.destroyed)
      this.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }
}

/** What the thread answers to a message: the reply's bytes, "done", or what went wrong there. */
type Reply = Uint8Array | "done" | { error: string };

const failure = (reply: Reply) => (typeof reply === "object" && "error" in reply ? new Error(reply.error) : undefined);

/**
 * PGlite on a worker thread of its own (ADR 021): its WebAssembly runs a query synchronously, and on
 * the HTTP server's thread every query stopped every request. The thread answers the PostgreSQL
 * wire protocol, so the app reaches it through node-postgres like a PostgreSQL server, over one
 * connection at a time (PGlite is one backend).
 */
export class PgliteThread {
  readonly #worker: Worker;
  readonly #exited: Promise<void>;
  #connection: ThreadSocket | undefined;
  // The thread answers every message once, in order: each reply goes to the first one waiting.
  #waiting: Array<(reply: Reply) => void> = [];
  // Once the thread is gone, nothing would ever answer: every message is failed here instead.
  #gone: Error | undefined;

  private constructor(worker: Worker) {
    this.#worker = worker;
    this.#exited = new Promise((resolve) => worker.once("exit", () => resolve()));
    worker.on("message", (reply: Reply) => this.#waiting.shift()?.(reply));
    const failAll = (error: Error) => {
      for (const waiting of this.#waiting.splice(0)) waiting({ error: error.message });
      this.#connection?.destroy(error);
    };
    worker.on("error", failAll);
    worker.once("exit", (code) => {
      this.#gone = new Error(`the embedded database's thread exited (code ${code})`);
      failAll(this.#gone);
    });
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

  /**
   * node-postgres's `stream` option: the one connection to this database. The pool replaces a
   * connection that failed a query; the new one starts a new session, as with a new backend.
   */
  connect = (): Duplex => {
    this.#connection?.destroy();
    const connection = new ThreadSocket(this);
    this.#connection = connection;
    this.#ask("session", (reply) => {
      const error = failure(reply);
      if (error) connection.destroy(error);
    });
    return connection;
  };

  send(from: ThreadSocket, bytes: ArrayBuffer) {
    if (from !== this.#connection) return;
    this.#ask(bytes, (reply) => {
      const error = failure(reply);
      if (error) from.destroy(error);
      else if (reply instanceof Uint8Array) from.receive(reply);
    });
  }

  #ask(message: ArrayBuffer | "session" | "close", answered: (reply: Reply) => void) {
    const gone = this.#gone;
    if (gone) {
      queueMicrotask(() => answered({ error: gone.message }));
      return;
    }
    this.#waiting.push(answered);
    this.#worker.postMessage(message, message instanceof ArrayBuffer ? [message] : []);
  }

  /** Closes the database (PGlite writes what it holds) and ends the thread. */
  async close() {
    this.#connection?.destroy();
    this.#connection = undefined;
    const reply = await new Promise<Reply>((resolve) => this.#ask("close", resolve));
    await this.#worker.terminate();
    await this.#exited;
    const error = failure(reply);
    if (error) throw error;
  }
}
