import { availableParallelism } from "node:os";
import { z } from "~/lib/zod";
import { siteConfig } from "../site.config";

/** "Jetlane <no-reply@jetlane.example>": a no-reply address on the main domain, without its "www.". */
const defaultMailFrom = `${siteConfig.company.name} <no-reply@${siteConfig.domains.main.replace(/^www\./, "")}>`;

/** Each process holds a pool of up to DATABASE_POOL_SIZE connections; PostgreSQL allows 100 by default. */
const MAX_WEB_CONCURRENCY = 8;

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  /**
   * Where people reach the site, which every link of its pages and e-mails names; required in
   * production on PostgreSQL. Unset, the server's own address from HOST and PORT (`siteOrigin`).
   */
  SITE_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** PostgreSQL connection string; when unset the embedded PGlite database is used. */
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: "must be a postgres:// or postgresql:// URL" }).optional(),
  /**
   * PostgreSQL connections each server process may hold at once (docs/configuration.md, "Connection
   * pooling": instances × WEB_CONCURRENCY × this, plus one per command run, must stay under max_connections).
   */
  DATABASE_POOL_SIZE: z.coerce
    .number({ error: "must be a whole number of connections" })
    .int("must be a whole number of connections")
    .min(1, "must be at least 1")
    .max(100, "must be at most 100")
    .default(10),
  /**
   * "transaction" when DATABASE_URL points at a transaction-mode pooler such as PgBouncer's
   * pool_mode=transaction: the app then sends no named prepared statements (ADR 022). "none" for
   * PostgreSQL itself or a session-mode pooler.
   */
  DATABASE_POOLER: z.enum(["none", "transaction"], { error: 'must be "none" or "transaction"' }).default("none"),
  /** Folder of the embedded database (PGlite); ignored when DATABASE_URL is set. */
  DATA_DIR: z.string().min(1).default("./data"),
  /**
   * Root secret for sessions and signatures (32+ characters). Optional on the embedded database,
   * where one is generated into DATA_DIR; required with DATABASE_URL.
   */
  APP_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /** SMTP server the outbox sends through; unset keeps e-mails queued in the outbox (logged without bodies). */
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),
  /** Sender of every e-mail, an address or "Name <address>". */
  MAIL_FROM: z.string().min(3).default(defaultMailFrom),
  /**
   * How many server processes share the port (node:cluster, ADR 020). Unset: one per core on
   * PostgreSQL (at most MAX_WEB_CONCURRENCY), 1 on the embedded database, which only one process
   * can open.
   */
  WEB_CONCURRENCY: z.coerce
    .number({ error: "must be a whole number of server processes" })
    .int("must be a whole number of server processes")
    .min(1, "must be at least 1")
    .max(MAX_WEB_CONCURRENCY, `must be at most ${MAX_WEB_CONCURRENCY}: each process opens its own database pool`)
    .optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /**
   * Whether X-Forwarded-For names the client (rate limits key on the client's address): "false"
   * (default: the socket's address), "true" (any proxy), a hop count, or a comma-separated list of
   * proxy addresses, subnets or Express's names ("loopback", "uniquelocal"). Express's "trust proxy".
   */
  TRUST_PROXY: z
    .string()
    .regex(/^[\w.:/, -]+$/, "must be true, false, a hop count or a list of addresses")
    .default("false")
    .transform(parseTrustProxy),
  /** How often the retention job runs (ADR 008), in minutes; 0 leaves it to `npm run retention`. */
  RETENTION_INTERVAL_MINUTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 60)
    .default(60),
  /**
   * How often the billing job runs (ADR 016): trial reminders, quarterly fees, retries, ends of
   * periods. In minutes; 0 leaves it to `npm run billing`.
   */
  BILLING_INTERVAL_MINUTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 60)
    .default(15),
  /**
   * An OpenAI-compatible API (OpenAI, Azure, Ollama, vLLM, LM Studio), e.g. https://api.openai.com/v1,
   * for the config generator's rephrasing. Unset: the built-in offline rephraser is used.
   */
  AI_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Sent as a Bearer token to AI_BASE_URL; never logged, never sent to the browser. */
  AI_API_KEY: z.string().optional(),
  AI_MODEL: z.string().min(1).optional(),
  AI_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000),
  /**
   * Stripe takes the payments when its secret key is set (ADR 018); unset, the sandbox gateway does.
   * The three keys come together, all of test mode or all of live mode.
   */
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\w+$/, "must be a Stripe secret key (sk_test_… or sk_live_…)")
    .optional(),
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_(test|live)_\w+$/, "must be a Stripe publishable key (pk_test_… or pk_live_…)")
    .optional(),
  /** The signing secret of the webhook endpoint /stripe/webhook, from Stripe's dashboard. */
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, "must be a webhook signing secret (whsec_…)")
    .optional(),
  /** Another origin for Stripe's API, such as a local Stripe-compatible server, for tests and staging. */
  STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
  /** Where the browser loads Stripe.js from. */
  STRIPE_JS_URL: z.url({ protocol: /^https?$/ }).default("https://js.stripe.com/v3/"),
  /**
   * Turns /metrics on (ADR 024): Prometheus must then send it as a bearer token. Unset, /metrics is
   * not found. Long and random, like a password: `openssl rand -hex 32`.
   */
  METRICS_TOKEN: z
    .string()
    .min(32, "must be at least 32 characters")
    .regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces (it is sent in a header)")
    .optional(),
  /** "true" makes every response carry X-Query-Count, its number of SQL queries: for bench/admin-pages.ts only. */
  BENCH_COUNT_QUERIES: z.stringbool().default(false),
});

const STRIPE_KEYS = ["STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET"] as const;

const checkedEnvSchema = envSchema
  .superRefine((parsed, context) => {
    if (!parsed.DATABASE_URL && parsed.WEB_CONCURRENCY !== undefined && parsed.WEB_CONCURRENCY > 1) {
      context.addIssue({
        code: "custom",
        path: ["WEB_CONCURRENCY"],
        message:
          "must be 1 on the embedded database (PGlite), which only one process can open: set DATABASE_URL to run several",
      });
    }
    if (!parsed.DATABASE_URL && parsed.DATABASE_POOLER !== "none") {
      context.addIssue({
        code: "custom",
        path: ["DATABASE_POOLER"],
        message: "only applies to PostgreSQL: set DATABASE_URL to the pooler's address",
      });
    }
    if (parsed.NODE_ENV === "production" && parsed.DATABASE_URL && !parsed.SITE_URL) {
      context.addIssue({
        code: "custom",
        path: ["SITE_URL"],
        message:
          "is required in production on PostgreSQL (DATABASE_URL): the address people use, which every e-mail links to",
      });
    }
    if (parsed.AI_BASE_URL && !parsed.AI_MODEL) {
      context.addIssue({ code: "custom", path: ["AI_MODEL"], message: "is required when AI_BASE_URL is set" });
    }
    const givenStripeKey = STRIPE_KEYS.find((key) => parsed[key]);
    if (givenStripeKey) {
      for (const key of STRIPE_KEYS) {
        if (!parsed[key])
          context.addIssue({ code: "custom", path: [key], message: `is required when ${givenStripeKey} is set` });
      }
    }
    const secretMode = /_(test|live)_/.exec(parsed.STRIPE_SECRET_KEY ?? "")?.[1];
    const publishableMode = /_(test|live)_/.exec(parsed.STRIPE_PUBLISHABLE_KEY ?? "")?.[1];
    if (secretMode && publishableMode && secretMode !== publishableMode) {
      context.addIssue({
        code: "custom",
        path: ["STRIPE_PUBLISHABLE_KEY"],
        message: `is a ${publishableMode} key but STRIPE_SECRET_KEY is a ${secretMode} key`,
      });
    }
  })
  .transform((parsed) => ({
    ...parsed,
    WEB_CONCURRENCY:
      parsed.WEB_CONCURRENCY ?? (parsed.DATABASE_URL ? Math.min(availableParallelism(), MAX_WEB_CONCURRENCY) : 1),
  }));

function parseTrustProxy(value: string): boolean | number | string[] {
  if (value === "true" || value === "false") return value === "true";
  if (/^\d+$/.test(value)) return Number(value);
  return value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
}

export type Env = z.output<typeof checkedEnvSchema>;

export class EnvError extends Error {
  override name = "EnvError";
}

/** Parses an environment, naming every bad variable and why, so a misconfigured boot fails fast. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const blankAsUnset = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = checkedEnvSchema.safeParse(blankAsUnset);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
  throw new EnvError(`Invalid environment variables:\n${problems.join("\n")}`);
}

let cached: Env | undefined;

/** The process environment, validated once on first use. */
export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
