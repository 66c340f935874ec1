import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { env, type Env } from "~/env.server";

type OriginConfig = Pick<Env, "SITE_URL" | "HOST" | "PORT">;

/**
 * Where the site is served, which every link of its pages and e-mails names (README, "Where links
 * point"): SITE_URL, or else the server's own address from HOST and PORT. Never a request's Host
 * header, which is whatever the client sent, so that a mail written during a request links where one
 * the billing job writes does.
 */
export function siteOrigin(config: OriginConfig = env()): string {
  if (config.SITE_URL) return new URL(config.SITE_URL).origin;
  const anyAddress = config.HOST === "0.0.0.0" || config.HOST === "::";
  const host = anyAddress ? "localhost" : config.HOST.includes(":") ? `[${config.HOST}]` : config.HOST;
  return new URL(`http://${host}:${config.PORT}`).origin;
}

/**
 * The embedded database belongs to one process, so a command (`npm run billing`) runs while the
 * server is stopped and cannot ask it where it listens: the server leaves its origin beside the data.
 */
const servedOriginFile = (config: Pick<Env, "DATA_DIR">) => join(config.DATA_DIR, "site-origin");

/** Called by the server on the embedded database once it holds it. */
export function recordServedOrigin(config: OriginConfig & Pick<Env, "DATA_DIR"> = env()): void {
  mkdirSync(config.DATA_DIR, { recursive: true });
  writeFileSync(servedOriginFile(config), `${siteOrigin(config)}\n`);
}

/**
 * The origin for links an operator's command writes: SITE_URL; else, on the embedded database, where
 * the server that used this data last listened; else this environment's HOST and PORT, as the server's.
 */
export function commandOrigin(config: OriginConfig & Pick<Env, "DATA_DIR" | "DATABASE_URL"> = env()): string {
  const file = servedOriginFile(config);
  if (config.SITE_URL || config.DATABASE_URL || !existsSync(file)) return siteOrigin(config);
  return new URL(readFileSync(file, "utf8").trim()).origin;
}
