/**
 * PostgreSQL's SQLSTATEs for a database that is not there for the moment: the connection failed or
 * was cut (class 08), the server is shutting down, restarting or refusing connections (57P01-57P03),
 * or a transaction-mode pooler dropped it.
 */
const UNAVAILABLE_STATES = new Set(["08000", "08001", "08003", "08004", "08006", "57P01", "57P02", "57P03"]);
const UNAVAILABLE_SYSCALL_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "ENOTFOUND"]);
// node-postgres says these in words only.
const UNAVAILABLE_MESSAGES = [
  "Connection terminated",
  "Client has encountered a connection error and is not queryable",
  "timeout exceeded when trying to connect",
  "Client was closed and is not queryable",
];

/**
 * Whether `error` (or what it wraps: Drizzle wraps the driver's error as its cause) says the database
 * could not be reached or dropped the connection, rather than that the query was wrong: the request
 * may be answered 503 and tried again.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== "object") return false;
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === "string" && (UNAVAILABLE_STATES.has(code) || UNAVAILABLE_SYSCALL_CODES.has(code))) return true;
    if (typeof message === "string" && UNAVAILABLE_MESSAGES.some((words) => message.includes(words))) return true;
    current = cause;
  }
  return false;
}
