import "react-router";
import { createRequestHandler } from "@react-router/express";
import compression from "compression";
import express, { type RequestHandler } from "express";
import { databaseTargetFromEnv, installDatabase, openDatabase } from "~/db/client.server";
import { env } from "~/env.server";
import { startOutboxWorker } from "~/features/mail/outbox-worker.server";
import { scheduleRetention } from "~/features/privacy/retention-job.server";
import { logger } from "~/logger.server";
import { clientAddress } from "./client-address";

const SHUTDOWN_GRACE_MS = 10_000;
/** The retention job's first run waits for the boot to settle. */
const RETENTION_FIRST_RUN_DELAY_MS = 10_000;

interface StartOptions {
  /** Vite's dev middleware, in development; in production the built client is served from disk. */
  devMiddleware?: RequestHandler;
}

function createApp({ devMiddleware }: StartOptions) {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env().TRUST_PROXY);
  app.use(compression());
  if (devMiddleware) {
    app.use(devMiddleware);
  } else {
    app.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y" }));
    app.use(express.static("build/client", { maxAge: "1h", index: false }));
  }
  app.use(clientAddress);
  app.use(
    createRequestHandler({
      build: () => import("virtual:react-router/server-build"),
    }),
  );
  return app;
}

/**
 * The boot path: open and migrate the database, start the outbox worker, then listen. Nothing here
 * runs at import time, because `react-router build` imports this bundle.
 */
export async function start(options: StartOptions = {}) {
  const config = env();
  const handle = await openDatabase(databaseTargetFromEnv(config));
  installDatabase(handle);
  const outboxWorker = startOutboxWorker(handle.db, config);
  const retention =
    config.RETENTION_INTERVAL_MINUTES > 0
      ? scheduleRetention(handle.db, {
          intervalMs: config.RETENTION_INTERVAL_MINUTES * 60_000,
          firstRunDelayMs: RETENTION_FIRST_RUN_DELAY_MS,
          logger,
        })
      : undefined;
  const server = createApp(options).listen(config.PORT, config.HOST, () => {
    logger.info({ port: config.PORT, database: handle.kind }, "server listening");
  });

  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    const forceClose = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    forceClose.unref();
    server.closeIdleConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await retention?.stop();
    await outboxWorker.stop();
    installDatabase(undefined);
    await handle.close();
    logger.info("stopped");
    process.exit(0);
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  return server;
}
