import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startSmtpSink, type SmtpSink } from "../../support/smtp-sink.mjs";
import { bookingFormFields } from "../../support/integration/booking-helpers";
import { cookieHeader } from "../../support/integration/requests";
import { startProductionServer, type ProductionServer } from "../../support/production-server";
import { testDatabaseKind } from "../../support/test-database";

// Several instances of the site on one PostgreSQL, and PostgreSQL going away under a running one.

const onPostgres = testDatabaseKind() === "postgres";
const servers: ProductionServer[] = [];
let sink: SmtpSink | undefined;

afterAll(async () => {
  for (const server of servers.reverse()) await server.dispose();
  await sink?.close();
});

function post(server: ProductionServer, path: string, body: BodyInit, headers: Record<string, string> = {}) {
  return fetch(`${server.baseUrl}${path}`, {
    method: "POST",
    redirect: "manual",
    body,
    headers: { Origin: server.baseUrl, ...headers },
  });
}

const json = (value: unknown) => JSON.stringify(value);
const JSON_HEADERS = { "Content-Type": "application/json" };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs = 30_000) {
  for (let waited = 0; waited < timeoutMs; waited += 250) {
    if (await check()) return waited;
    await sleep(250);
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.runIf(onPostgres)("two instances sharing one PostgreSQL database", () => {
  it("share sessions, rate limits and the outbox", async () => {
    sink = await startSmtpSink();
    const env = { TRUST_PROXY: "true", LOG_LEVEL: "warn", SMTP_URL: `smtp://127.0.0.1:${sink.port}` };
    const first = await startProductionServer("postgres", env);
    servers.push(first);
    const second = await startProductionServer("postgres", env, { dataOf: first });
    servers.push(second);

    // A session created on one instance is honoured by the other.
    const email = `twin.${Date.now()}@example.com`;
    const password = "twin-instances-1";
    const account = { "X-Forwarded-For": "10.7.0.1", ...JSON_HEADERS };
    expect((await post(first, "/api/auth/sign-up/email", json({ name: "Twin", email, password }), account)).ok).toBe(
      true,
    );
    const signedIn = await post(second, "/api/auth/sign-in/email", json({ email, password }), account);
    expect(signedIn.ok).toBe(true);
    const cookie = cookieHeader(signedIn.headers);
    const adminAs = async (server: ProductionServer, headers: Record<string, string>) =>
      (await fetch(`${server.baseUrl}/admin`, { redirect: "manual", headers })).headers.get("Location");
    // Signed in but not an admin: sent home, where an anonymous visitor is sent to sign in.
    expect(await adminAs(first, { Cookie: cookie })).toBe("/");
    expect(await adminAs(first, {})).toBe("/auth");

    // Wrong passwords from one address, alternating between the instances, count against one limit.
    const attacker = { "X-Forwarded-For": "10.7.0.2", ...JSON_HEADERS };
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 8; attempt++) {
      const server = attempt % 2 === 0 ? first : second;
      statuses.push(
        (await post(server, "/api/auth/sign-in/email", json({ email, password: "wrong" }), attacker)).status,
      );
    }
    const refusedFrom = statuses.indexOf(429);
    expect(refusedFrom).toBeGreaterThan(0);
    expect(refusedFrom).toBeLessThanOrEqual(5);
    expect(statuses.slice(refusedFrom).every((status) => status === 429)).toBe(true);

    // Messages taken by either instance: each queued mail is sent once, by one of them.
    const messages = 12;
    for (let index = 0; index < messages; index++) {
      const fields = {
        firstName: "Twin",
        lastName: `Writer ${index}`,
        email: `twin.writer.${index}.${Date.now()}@example.com`,
        phone: "+33 1 23 45 67 89",
        message: "Which instance took this?",
      };
      const answer = await post(index % 2 === 0 ? first : second, "/contact", new URLSearchParams(fields), {
        "X-Forwarded-For": `10.7.1.${index}`,
      });
      expect(answer.status).toBe(302);
    }
    await waitFor("every mail", async () => sink!.messages.length >= messages * 2);
    await sleep(2_000);
    const client = new pg.Client({ connectionString: first.databaseUrl });
    await client.connect();
    const { rows } = await client.query<{ to: string; subject: string; status: string }>(
      'select "to", subject, status from outbox',
    );
    await client.end();
    const delivered = sink.messages.map((mail) => `${mail.envelopeTo.join(",")} ${mail.subject}`).sort();
    expect(rows.every((row) => row.status === "sent")).toBe(true);
    expect(delivered).toEqual(rows.map((row) => `${row.to} ${row.subject}`).sort());
    console.log(
      `two instances: session shared, sign-in limited from attempt ${refusedFrom + 1} of 8 across both, ` +
        `${rows.length} mails queued and ${delivered.length} delivered`,
    );
  }, 180_000);
});

/** A PostgreSQL server of the test's own, that it may stop and start: the shared one serves other tests. */
function privatePostgres() {
  const versions = existsSync("/usr/lib/postgresql") ? readdirSync("/usr/lib/postgresql").sort((a, b) => +a - +b) : [];
  const bin = versions.length ? `/usr/lib/postgresql/${versions.at(-1)}/bin` : null;
  if (!bin || process.getuid?.() !== 0) return null;
  const dir = mkdtempSync(join(tmpdir(), "pg-restart-"));
  chownSync(dir, Number(execFileSync("id", ["-u", "postgres"]).toString()), 0);
  const port = 5600 + Math.floor(Math.random() * 300);
  const asPostgres = (command: string, ...args: string[]) =>
    execFileSync("runuser", ["-u", "postgres", "--", `${bin}/${command}`, ...args], { stdio: "pipe" });
  asPostgres("initdb", "-D", `${dir}/data`, "-A", "trust", "-U", "postgres");
  // Asynchronous, so that the test's load goes on while PostgreSQL stops and starts.
  const pgCtl = (...args: string[]) =>
    promisify(execFile)("runuser", [
      "-u",
      "postgres",
      "--",
      `${bin}/pg_ctl`,
      ...["-D", `${dir}/data`, "-l", `${dir}/log`, "-o", `-p ${port} -k ${dir}`, "-w", ...args],
    ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => pgCtl("start"),
    stop: () => pgCtl("stop", "-m", "fast"),
    async remove() {
      await pgCtl("stop", "-m", "immediate").catch(() => {}); // already stopped
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const postgres = onPostgres ? privatePostgres() : null;

describe.runIf(postgres)("PostgreSQL restarting under a running server", () => {
  afterAll(() => postgres?.remove());

  it("answers 503 on /healthz while the database is down and recovers without a restart", async () => {
    await postgres!.start();
    const server = await startProductionServer(
      "postgres",
      { LOG_LEVEL: "fatal" },
      { postgresServerUrl: postgres!.url },
    );
    try {
      const health = async () => (await fetch(`${server.baseUrl}/healthz`)).status;
      const book = () => post(server, "/fast-track-form", new URLSearchParams(bookingFormFields()));
      expect((await book()).status).toBe(302);
      // Bookings keep coming all through the outage.
      const answers = new Map<number | "no answer", number>();
      let loading = true;
      const load = (async () => {
        while (loading) {
          const status = await book().then(
            (response) => response.status,
            () => "no answer" as const,
          );
          answers.set(status, (answers.get(status) ?? 0) + 1);
          await sleep(50);
        }
      })();

      await postgres!.stop();
      const noticedIn = await waitFor("a 503", async () => (await health()) === 503, 15_000);
      const bookingWhileDown = await book();
      // The database is out for a moment: worth trying again (the form keeps its own message).
      expect(bookingWhileDown.status).toBe(503);
      expect(bookingWhileDown.headers.get("Retry-After")).toBe("5");
      expect(await bookingWhileDown.text()).toContain("Failed to create booking. Please try again.");

      await postgres!.start();
      const recoveredIn = await waitFor("a 200", async () => (await health()) === 200, 30_000);
      expect((await book()).status).toBe(302);
      loading = false;
      await load;
      expect(server.process.exitCode).toBeNull();
      expect([...answers.keys()].filter((status) => status !== 302 && status !== 503)).toEqual([]);
      console.log(
        `PostgreSQL restart: /healthz said 503 within ${noticedIn} ms of the stop, 200 within ${recoveredIn} ms of the start; ` +
          `bookings under load answered ${JSON.stringify(Object.fromEntries(answers))}, same server process`,
      );
    } finally {
      // The database is dropped on the way out, so PostgreSQL must be up again even after a failure.
      await postgres!.start().catch(() => {});
      await server.dispose();
    }
  }, 180_000);
});
