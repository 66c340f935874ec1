import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATE_LIMIT_TIERS, TOO_MANY_REQUESTS } from "~/lib/rate-limit.server";
import { BODY_LIMITS, BODY_TOO_LARGE_MESSAGE } from "../../../server/request-guards";
import { newPerson } from "../../support/accounts";
import { CONTACT_FORM_FIELDS } from "../../support/integration/contact-form-fields";
import { nginxPorts, send, startNginx, type RunningNginx, type SendOptions } from "../../support/nginx";
import { productionServerArgs } from "../../support/production-node";
import { startProductionServer, type ProductionServer } from "../../support/production-server";
import { testDatabaseKind } from "../../support/test-database";

// The production setup of deploy/ (docs/operations.md, "Behind nginx with HTTPS"): Debian's nginx with the
// shipped site config and a certificate, in front of the production server started with the
// shipped environment file. nginx does the same whatever the database, so this runs once, in the
// project that always runs (PGlite).

const kind = testDatabaseKind();
const deployFile = (name: string) => readFileSync(new URL(`../../../deploy/${name}`, import.meta.url), "utf8");

/** The variables deploy/jetlane.env sets (its comments and commented-out lines left out). */
function shippedEnvironment(): Record<string, string> {
  const lines = deployFile("jetlane.env")
    .split("\n")
    .filter((line) => /^[A-Z_]+=/.test(line));
  return Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]));
}

describe("the deploy files", () => {
  it("have the app listen where nginx sends requests, and systemd start it as `npm run serve` does", () => {
    const { HOST, PORT } = shippedEnvironment();
    expect(deployFile("nginx-site.conf")).toContain(`server ${HOST}:${PORT};`);
    const execStart = /^ExecStart=(.*)$/m.exec(deployFile("jetlane.service"))?.[1];
    expect(execStart).toBe(["/usr/bin/node", ...productionServerArgs()].join(" "));
  });
});

describe.runIf(kind === "pglite")("the site behind nginx with https, as deploy/ sets it up", () => {
  let server: ProductionServer;
  let nginx: RunningNginx;

  beforeAll(async () => {
    const ports = await nginxPorts();
    const { NODE_ENV, TRUST_PROXY, SITE_URL } = shippedEnvironment();
    expect(SITE_URL).toMatch(/^https:\/\//);
    server = await startProductionServer(kind, { NODE_ENV, TRUST_PROXY, SITE_URL: ports.origin });
    nginx = await startNginx(ports, Number(new URL(server.baseUrl).port));
  });

  afterAll(async () => {
    await nginx?.stop();
    await server?.dispose();
  });

  /** A form as the site's own page posts it, from a browser at `from`. */
  const postForm = (path: string, fields: Record<string, string>, options: SendOptions = {}) =>
    send(nginx, path, {
      ...options,
      method: "POST",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "text/html",
        Origin: nginx.origin,
        ...options.headers,
      },
      body: new URLSearchParams(fields).toString(),
    });

  it("answers plain http with a redirect to the same address over https", async () => {
    const answer = await send(nginx, "/contact?topic=lounges", { plainHttp: true });
    expect(answer.status).toBe(301);
    expect(answer.headers.location).toBe(`${nginx.origin}/contact?topic=lounges`);
  });

  it("names the https origin in canonical links, robots.txt and redirects, and sends HSTS once", async () => {
    const home = await send(nginx, "/");
    expect(home.status).toBe(200);
    expect(home.body).toContain(`<link rel="canonical" href="${nginx.origin}/"/>`);
    // Node joins a repeated header's values with ", ": one value means one header.
    expect(home.headers["strict-transport-security"]).toBe("max-age=31536000");
    expect(home.headers["content-security-policy"]).not.toContain(", ");

    expect((await send(nginx, "/robots.txt")).body).toContain(`Sitemap: ${nginx.origin}/sitemap.xml`);

    const admin = await send(nginx, "/admin");
    expect(admin.status).toBe(302);
    expect(new URL(admin.headers.location!, nginx.origin).toString()).toBe(`${nginx.origin}/auth`);
  });

  it("signs a person in through nginx with Secure cookies only", async () => {
    const person = newPerson();
    const from = "127.0.0.4";
    const signedUp = await postForm(
      "/auth",
      {
        intent: "sign-up",
        fullName: person.fullName,
        email: person.email,
        password: person.password,
        confirmPassword: person.password,
      },
      { from },
    );
    expect(signedUp.status).toBe(200);
    expect(signedUp.body).toContain("Compte créé avec succès");

    const signedIn = await postForm("/auth", { email: person.email, password: person.password }, { from });
    expect(signedIn.status).toBe(302);
    expect(new URL(signedIn.headers.location!, nginx.origin).toString()).toBe(`${nginx.origin}/`);
    const cookies = signedIn.headers["set-cookie"] ?? [];
    expect(cookies.some((cookie) => cookie.startsWith("__Secure-better-auth.session_token="))).toBe(true);
    for (const cookie of cookies) expect(cookie).toMatch(/; Secure(;|$)/i);

    // The session works: the sign-in page sends a signed-in person home.
    const cookieHeader = cookies.map((cookie) => cookie.split(";")[0]).join("; ");
    const authPage = await send(nginx, "/auth", { from, headers: { Cookie: cookieHeader } });
    expect(authPage.status).toBe(302);
    expect(authPage.headers.location).toBe("/");
  });

  it("keeps nginx's request id, in its answer, nginx's access log and the app's log, whatever id the client sent", async () => {
    const answer = await send(nginx, "/no-such-page", { headers: { "X-Request-Id": "chosen-by-the-client" } });
    expect(answer.status).toBe(404);
    const id = answer.headers["x-request-id"];
    // nginx's $request_id: 32 hex digits.
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    await expect.poll(() => nginx.accessLog()).toMatch(new RegExp(`"GET /no-such-page HTTP/[\\d.]+" 404 .* ${id}\n`));
    await expect
      .poll(() => server.output())
      .toContain(`"requestId":"${id}","path":"/no-such-page","referrer":null,"msg":"404: page not found"`);
    expect(server.output()).not.toContain("chosen-by-the-client");
  });

  it("rate limits the address nginx saw, which the client's own X-Forwarded-For cannot change", async () => {
    const { max } = RATE_LIMIT_TIERS.publicForms;
    const contact = (from: string, headers: Record<string, string> = {}) =>
      postForm("/contact", CONTACT_FORM_FIELDS, { from, headers });

    for (let index = 0; index < max; index++) {
      // Each claiming to be someone else: were it believed, no address would reach the limit.
      expect((await contact("127.0.0.2", { "X-Forwarded-For": `198.51.100.${index}` })).status).toBe(302);
    }
    const limited = await contact("127.0.0.2");
    expect(limited.status).toBe(429);
    expect(limited.body).toContain(TOO_MANY_REQUESTS);
    expect((await contact("127.0.0.2", { "X-Forwarded-For": "203.0.113.7" })).status).toBe(429);

    // Another client is counted apart, even when it claims to be the limited one.
    expect((await contact("127.0.0.3", { "X-Forwarded-For": "127.0.0.2" })).status).toBe(302);
  });

  it("refuses a body over the limit with the app's message, from the app or from nginx", async () => {
    const overForms = { ...CONTACT_FORM_FIELDS, message: "x".repeat(BODY_LIMITS.other) };
    const byTheApp = await postForm("/contact", overForms, { from: "127.0.0.5" });
    expect(byTheApp.status).toBe(413);
    expect(byTheApp.body).toContain(BODY_TOO_LARGE_MESSAGE);

    // JSON up to its own limit gets through nginx (to the API's guard: no admin signed in).
    const json = (size: number) =>
      send(nginx, "/api/regenerate-wordings", {
        method: "POST",
        from: "127.0.0.5",
        headers: { "Content-Type": "application/json", Origin: nginx.origin },
        body: JSON.stringify({ padding: "x".repeat(size - '{"padding":""}'.length) }),
      });
    expect((await json(BODY_LIMITS.json)).status).toBe(401);
    // The app answered before reading that body: the next visitor's request must not be sent down
    // the connection it left (it would wait, then fail).
    expect((await postForm("/contact", CONTACT_FORM_FIELDS, { from: "127.0.0.6" })).status).toBe(302);

    // nginx refuses it itself, without the app's headers: the app never receives what no route takes.
    const byNginx = await json(BODY_LIMITS.json + 1);
    expect(byNginx.status).toBe(413);
    expect(byNginx.headers["content-security-policy"]).toBeUndefined();
    expect(byNginx.body.trim()).toBe(BODY_TOO_LARGE_MESSAGE);
  });

  it("keeps hashed assets as the app sent them, in each encoding a browser asks for", async () => {
    const asset = /\/assets\/entry\.client-[\w-]+\.js/.exec((await send(nginx, "/auth")).body)![0];
    const fetchAsset = (encoding?: string) =>
      send(nginx, asset, { headers: encoding ? { "Accept-Encoding": encoding } : {} });

    const first = await fetchAsset("gzip, deflate, br");
    const again = await fetchAsset("gzip, deflate, br");
    expect([first.headers["x-cache-status"], again.headers["x-cache-status"]]).toEqual(["MISS", "HIT"]);
    expect(again.headers).toMatchObject({
      "content-encoding": "br",
      "cache-control": "public, max-age=31536000, immutable",
      "strict-transport-security": "max-age=31536000",
    });
    expect((await fetchAsset("gzip")).headers["content-encoding"]).toBe("gzip");
    const identity = await fetchAsset();
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.body).toContain("import");
  });
});
