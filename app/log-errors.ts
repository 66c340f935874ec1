/**
 * An error as the logs keep it: its type, message, stack, code and causes, without the values a
 * failed query carried. Drizzle writes the query's parameters into its error's message ("params:
 * ann@example.com,…") and PostgreSQL names the values in `detail` ("Key (email)=(…) already exists"):
 * both are customers' personal data, which never reach a log.
 */
export function errorForLog(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return error;
  const message = error.message.replace(/\nparams: [\s\S]*$/, "");
  const stack = (error.stack ?? "").replace(error.message, message);
  const fields = error as Error & Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const key of KEPT_FIELDS) if (fields[key] !== undefined) kept[key] = fields[key];
  return {
    type: error.constructor.name,
    message,
    stack,
    ...kept,
    ...(error.cause !== undefined && depth < 4 ? { cause: errorForLog(error.cause, depth + 1) } : {}),
  };
}

/** What an error may say about itself: codes and names, never values (no `detail`, `params`, `where`). */
const KEPT_FIELDS = ["code", "errno", "syscall", "severity", "routine", "constraint", "table", "column", "query"];
