import { database } from "~/db/client.server";
import { logger } from "~/logger.server";

const PING_TIMEOUT_MS = 2_000;

export interface Health {
  status: "ok" | "unavailable";
  database: "reachable" | "unreachable";
}

/** Whether the database answers a trivial query within a short time. */
export async function checkHealth(): Promise<Health> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      database().ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${PING_TIMEOUT_MS} ms`)), PING_TIMEOUT_MS);
      }),
    ]);
    return { status: "ok", database: "reachable" };
  } catch (error) {
    logger.error({ err: error }, "health check: database unreachable");
    return { status: "unavailable", database: "unreachable" };
  } finally {
    clearTimeout(timer);
  }
}
