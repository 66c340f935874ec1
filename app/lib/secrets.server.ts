import { hkdfSync, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { env, EnvError } from "~/env.server";

let cached: string | undefined;

/**
 * The application's root secret: APP_SECRET, or, on the embedded database only, a random one
 * generated once and kept beside the data (so `npm start` works with nothing configured and
 * sessions survive restarts). Several instances on PostgreSQL must share one, so there it is required.
 */
export function appSecret(): string {
  if (cached) return cached;
  const config = env();
  if (config.APP_SECRET) return (cached = config.APP_SECRET);
  if (config.DATABASE_URL) {
    throw new EnvError("APP_SECRET must be set when DATABASE_URL is: every instance needs the same secret.");
  }
  const file = join(config.DATA_DIR, "app-secret");
  if (!existsSync(file)) {
    mkdirSync(config.DATA_DIR, { recursive: true });
    writeFileSync(file, randomBytes(32).toString("base64url"), { flag: "wx", mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return (cached = readFileSync(file, "utf8").trim());
}

const derived = new Map<string, Buffer>();

/**
 * An independent 32-byte key for one purpose ("vouchers", "unsubscribe", ...), derived from the root
 * secret once per process (the secret is read once too): each payment signs with several.
 */
export function deriveKey(purpose: string): Buffer {
  let key = derived.get(purpose);
  if (!key) derived.set(purpose, (key = Buffer.from(hkdfSync("sha256", appSecret(), "", purpose, 32))));
  return key;
}
