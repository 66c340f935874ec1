import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env.server";

const SITE_URL = "https://www.jetlane.example";

describe("parseEnv", () => {
  it("fills the defaults for an empty environment: PGlite in ./data on port 3000", () => {
    expect(parseEnv({})).toMatchObject({ PORT: 3000, DATA_DIR: "./data", NODE_ENV: "production" });
    expect(parseEnv({}).DATABASE_URL).toBeUndefined();
  });

  it("treats a blank variable as unset", () => {
    const parsed = parseEnv({ DATABASE_URL: "", PORT: "" });
    expect(parsed.PORT).toBe(3000);
    expect(parsed.DATABASE_URL).toBeUndefined();
  });

  it("names each bad variable in its error", () => {
    const attempt = () => parseEnv({ PORT: "eighty", DATABASE_URL: "mysql://localhost/db", LOG_LEVEL: "loud" });
    expect(attempt).toThrow(EnvError);
    expect(attempt).toThrow(/PORT:/);
    expect(attempt).toThrow(/DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL/);
    expect(attempt).toThrow(/LOG_LEVEL:/);
  });

  it("accepts a PostgreSQL URL", () => {
    expect(parseEnv({ DATABASE_URL: "postgresql://app@db.internal:5432/site", SITE_URL }).DATABASE_URL).toBe(
      "postgresql://app@db.internal:5432/site",
    );
  });

  it("requires SITE_URL in production on PostgreSQL, where links must not name this machine", () => {
    const postgres = { DATABASE_URL: "postgres://app@db.internal/site" };
    expect(() => parseEnv(postgres)).toThrow(/SITE_URL: is required in production on PostgreSQL \(DATABASE_URL\)/);
    expect(() => parseEnv({ ...postgres, SITE_URL: "" })).toThrow(/SITE_URL: is required/);
    expect(parseEnv({ ...postgres, SITE_URL }).SITE_URL).toBe(SITE_URL);
    expect(parseEnv({ ...postgres, NODE_ENV: "development" }).SITE_URL).toBeUndefined();
    expect(parseEnv({}).SITE_URL).toBeUndefined();
  });

  it("sends mail from a no-reply address on the main domain unless MAIL_FROM says otherwise", () => {
    expect(parseEnv({}).MAIL_FROM).toBe("Jetlane <no-reply@jetlane.example>");
    expect(parseEnv({ MAIL_FROM: "Team <team@example.org>" }).MAIL_FROM).toBe("Team <team@example.org>");
  });

  it("accepts only an SMTP URL for SMTP_URL", () => {
    expect(parseEnv({ SMTP_URL: "smtps://user:pass@mail.example:465" }).SMTP_URL).toBe(
      "smtps://user:pass@mail.example:465",
    );
    expect(() => parseEnv({ SMTP_URL: "http://mail.example" })).toThrow(
      /SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/,
    );
  });
});

describe("TRUST_PROXY", () => {
  it("trusts no proxy by default", () => {
    expect(parseEnv({}).TRUST_PROXY).toBe(false);
  });

  it.each([
    ["true", true],
    ["false", false],
    ["2", 2],
    ["loopback, 10.0.0.0/8", ["loopback", "10.0.0.0/8"]],
  ])("reads %j as Express's trust proxy setting", (value, expected) => {
    expect(parseEnv({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it("rejects a value that is none of those", () => {
    expect(() => parseEnv({ TRUST_PROXY: "yes please!" })).toThrow(/TRUST_PROXY:/);
  });
});

describe("METRICS_TOKEN", () => {
  it("is unset by default, which leaves /metrics off", () => {
    expect(parseEnv({}).METRICS_TOKEN).toBeUndefined();
  });

  it("takes a long token and refuses a short one or one with spaces", () => {
    const token = "0123456789abcdef0123456789abcdef";
    expect(parseEnv({ METRICS_TOKEN: token }).METRICS_TOKEN).toBe(token);
    expect(() => parseEnv({ METRICS_TOKEN: "short" })).toThrow(/METRICS_TOKEN: must be at least 32 characters/);
    expect(() => parseEnv({ METRICS_TOKEN: `${token} ${token}` })).toThrow(/METRICS_TOKEN: must be printable ASCII/);
  });
});

describe("AI settings", () => {
  it("configures the AI endpoint: a model is required with a URL, the timeout has a default", () => {
    expect(parseEnv({})).toMatchObject({ AI_TIMEOUT_MS: 60_000 });
    expect(parseEnv({}).AI_BASE_URL).toBeUndefined();
    expect(() => parseEnv({ AI_BASE_URL: "https://api.openai.com/v1" })).toThrow(
      /AI_MODEL: is required when AI_BASE_URL is set/,
    );
    expect(() => parseEnv({ AI_BASE_URL: "ftp://models.example" })).toThrow(/AI_BASE_URL:/);
    expect(() => parseEnv({ AI_TIMEOUT_MS: "5" })).toThrow(/AI_TIMEOUT_MS:/);
    expect(
      parseEnv({ AI_BASE_URL: "http://127.0.0.1:11434/v1", AI_MODEL: "llama3.1", AI_TIMEOUT_MS: "90000" }),
    ).toMatchObject({ AI_BASE_URL: "http://127.0.0.1:11434/v1", AI_MODEL: "llama3.1", AI_TIMEOUT_MS: 90_000 });
  });
});

describe("Stripe", () => {
  const keys = {
    STRIPE_SECRET_KEY: "sk_test_51abcDEF",
    STRIPE_PUBLISHABLE_KEY: "pk_test_51abcDEF",
    STRIPE_WEBHOOK_SECRET: "whsec_abc123",
  };

  it("is off by default, with Stripe's own Stripe.js address ready", () => {
    expect(parseEnv({}).STRIPE_SECRET_KEY).toBeUndefined();
    expect(parseEnv({}).STRIPE_JS_URL).toBe("https://js.stripe.com/v3/");
  });

  it("takes the three keys together", () => {
    expect(parseEnv(keys)).toMatchObject(keys);
    expect(() => parseEnv({ STRIPE_SECRET_KEY: keys.STRIPE_SECRET_KEY })).toThrow(
      /STRIPE_PUBLISHABLE_KEY: is required when STRIPE_SECRET_KEY is set[\s\S]*STRIPE_WEBHOOK_SECRET: is required/,
    );
  });

  it("names a key of the wrong kind, or of the other mode", () => {
    expect(() => parseEnv({ ...keys, STRIPE_SECRET_KEY: "pk_test_51abc" })).toThrow(
      /STRIPE_SECRET_KEY: must be a Stripe secret key/,
    );
    expect(() => parseEnv({ ...keys, STRIPE_WEBHOOK_SECRET: "secret" })).toThrow(/STRIPE_WEBHOOK_SECRET: must be/);
    expect(() => parseEnv({ ...keys, STRIPE_PUBLISHABLE_KEY: "pk_live_51abc" })).toThrow(
      /STRIPE_PUBLISHABLE_KEY: is a live key but STRIPE_SECRET_KEY is a test key/,
    );
  });

  it("accepts another API origin and Stripe.js address, as URLs only", () => {
    const local = { ...keys, STRIPE_API_BASE: "http://127.0.0.1:12111", STRIPE_JS_URL: "http://127.0.0.1:12111/v3/" };
    expect(parseEnv(local)).toMatchObject(local);
    expect(() => parseEnv({ ...keys, STRIPE_API_BASE: "localhost:12111" })).toThrow(/STRIPE_API_BASE:/);
  });
});

describe("WEB_CONCURRENCY", () => {
  it("runs one process per core on PostgreSQL (up to 8), and one on the embedded database", () => {
    const cores = Math.min(availableParallelism(), 8);
    expect(parseEnv({ DATABASE_URL: "postgres://app@db.internal/site", SITE_URL }).WEB_CONCURRENCY).toBe(cores);
    expect(parseEnv({}).WEB_CONCURRENCY).toBe(1);
    expect(
      parseEnv({ DATABASE_URL: "postgres://app@db.internal/site", SITE_URL, WEB_CONCURRENCY: "3" }).WEB_CONCURRENCY,
    ).toBe(3);
  });

  it.each(["0", "-2", "1.5", "two", "9"])("refuses %j", (value) => {
    expect(() => parseEnv({ DATABASE_URL: "postgres://app@db.internal/site", WEB_CONCURRENCY: value })).toThrow(
      /WEB_CONCURRENCY: must be/,
    );
  });

  it("refuses more than one process on the embedded database, saying why", () => {
    expect(() => parseEnv({ WEB_CONCURRENCY: "2" })).toThrow(
      /WEB_CONCURRENCY: must be 1 on the embedded database \(PGlite\), which only one process can open/,
    );
    expect(parseEnv({ WEB_CONCURRENCY: "1" }).WEB_CONCURRENCY).toBe(1);
  });
});

describe("DATABASE_POOL_SIZE and DATABASE_POOLER", () => {
  const postgres = { DATABASE_URL: "postgres://app@pgbouncer.internal:6432/site", SITE_URL };

  it("default to 10 connections per process and no pooler", () => {
    expect(parseEnv(postgres)).toMatchObject({ DATABASE_POOL_SIZE: 10, DATABASE_POOLER: "none" });
    expect(parseEnv({ ...postgres, DATABASE_POOL_SIZE: "3", DATABASE_POOLER: "transaction" })).toMatchObject({
      DATABASE_POOL_SIZE: 3,
      DATABASE_POOLER: "transaction",
    });
  });

  it.each(["0", "1.5", "many", "101"])("refuses a pool size of %j", (value) => {
    expect(() => parseEnv({ ...postgres, DATABASE_POOL_SIZE: value })).toThrow(/DATABASE_POOL_SIZE: must be/);
  });

  it("refuses an unknown pooler, and a pooler without PostgreSQL", () => {
    expect(() => parseEnv({ ...postgres, DATABASE_POOLER: "session" })).toThrow(
      /DATABASE_POOLER: must be "none" or "transaction"/,
    );
    expect(() => parseEnv({ DATABASE_POOLER: "transaction" })).toThrow(
      /DATABASE_POOLER: only applies to PostgreSQL: set DATABASE_URL to the pooler's address/,
    );
  });
});
