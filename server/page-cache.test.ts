import { createHash } from "node:crypto";
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anonymousPageKey, createPageCache, inlineScriptHashes, preferredEncoding } from "./page-cache";

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

describe("inlineScriptHashes", () => {
  it("lists the hash of each inline script's text, and none for scripts with a src or no text", () => {
    const first = 'window.__context = {"a":1};';
    const second = "\n  console.log('<b>');\n";
    const html = [
      '<head><script async type="module" src="/assets/tabs.script-1.js"></script></head>',
      `<body><script nonce="n">${first}</script>`,
      "<script></script>",
      `<script type="module">${second}</script></body>`,
    ].join("");
    expect(inlineScriptHashes(html)).toEqual([sha256(first), sha256(second)]);
  });

  it("finds nothing in a page without inline scripts", () => {
    expect(inlineScriptHashes('<html><script src="/a.js"></script><p>text</p></html>')).toEqual([]);
  });
});

describe("anonymousPageKey", () => {
  const paths = new Set(["/faq"]);
  const request = (headers: IncomingMessage["headers"], { method = "GET", url = "/faq", encrypted = false } = {}) =>
    ({ method, url, headers, socket: encrypted ? { encrypted } : {} }) as unknown as IncomingMessage;
  const key = (...args: Parameters<typeof request>) => anonymousPageKey(request(...args), paths);

  it("keys a cookieless view by scheme, forwarded origin, host, path and the default currency", () => {
    expect(key({ host: "example.test" })).toBe("http   example.test /faq USD");
    expect(key({ host: "a", "x-forwarded-proto": "https", "x-forwarded-host": "b" }, { encrypted: true })).toBe(
      "https https b a /faq USD",
    );
  });

  it("keys by the currency cookie, falling back to the default for an unknown code", () => {
    expect(key({ host: "h", cookie: "currency=EUR" })).toBe("http   h /faq EUR");
    expect(key({ host: "h", cookie: " currency = GBP ;" })).toBe("http   h /faq GBP");
    expect(key({ host: "h", cookie: "currency=XXX" })).toBe("http   h /faq USD");
    expect(key({ host: "h", cookie: "" })).toBe("http   h /faq USD");
  });

  it("passes on any other cookie, query string, method or path", () => {
    expect(key({ host: "h", cookie: "currency=EUR; session=1" })).toBeNull();
    expect(key({ host: "h", cookie: "toast=x" })).toBeNull();
    expect(key({ host: "h" }, { url: "/faq?x=1" })).toBeNull();
    expect(key({ host: "h" }, { method: "HEAD" })).toBeNull();
    expect(key({ host: "h" }, { method: "POST" })).toBeNull();
    expect(key({ host: "h" }, { url: "/terms" })).toBeNull();
  });
});

describe("preferredEncoding", () => {
  it("prefers brotli, then gzip, reading whole tokens only", () => {
    expect(preferredEncoding("gzip, deflate, br")).toBe("br");
    expect(preferredEncoding("gzip, br")).toBe("br");
    expect(preferredEncoding("gzip")).toBe("gzip");
    expect(preferredEncoding("brotli, xgzip")).toBe("identity");
    expect(preferredEncoding("")).toBe("identity");
    expect(preferredEncoding(undefined)).toBe("identity");
  });

  it("answers a value it has seen before alike", () => {
    expect(preferredEncoding("deflate, gzip")).toBe("gzip");
    expect(preferredEncoding("deflate, gzip")).toBe("gzip");
  });
});

describe("createPageCache", () => {
  const script = "window.__x = 1;";
  const html = `<html><script nonce="n">${script}</script><p>page</p></html>`;
  let renders = 0;
  let server: Server;
  let origin: string;

  beforeAll(async () => {
    const cache = createPageCache({
      paths: ["/page"],
      render: async () => {
        renders += 1;
        return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
      },
      securityHeaders: (hashes) => ({ "Content-Security-Policy": `script-src 'self' ${hashes.join(" ")}` }),
    });
    const app = express();
    app.use((_req, res, next) => {
      res.locals.cspNonce = "nonce";
      res.setHeader("Content-Security-Policy", "script-src 'nonce-nonce'");
      next();
    });
    app.use(cache.middleware);
    app.use((_req, res) => res.status(299).send("rendered for itself"));
    server = createServer((req, res) => {
      if (!cache.serve(req, res)) app(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = (path: string, headers: Record<string, string> = {}, method = "GET") =>
    new Promise<{ status: number; headers: IncomingMessage["headers"]; body: Buffer }>((resolve, reject) => {
      httpRequest(`${origin}${path}`, { method, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
        );
      })
        .on("error", reject)
        .end();
    });

  it("renders a first view, then answers from memory in the encoding asked for, with the same headers", async () => {
    const first = await get("/page");
    expect(first.headers["x-page-cache"]).toBe("miss");
    expect(renders).toBe(1);

    const plain = await get("/page");
    const gzip = await get("/page", { "Accept-Encoding": "gzip" });
    const brotli = await get("/page", { "Accept-Encoding": "gzip, br" });
    expect(renders).toBe(1);
    expect(plain.body.toString()).toBe(html);
    expect(gunzipSync(gzip.body).toString()).toBe(html);
    expect(brotliDecompressSync(brotli.body).toString()).toBe(html);
    for (const [response, encoding] of [
      [first, undefined],
      [plain, undefined],
      [gzip, "gzip"],
      [brotli, "br"],
    ] as const) {
      expect(response.status).toBe(200);
      expect(response.headers["content-encoding"]).toBe(encoding);
      expect(response.headers["content-length"]).toBe(String(response.body.length));
      expect(response.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(response.headers.vary).toBe("Accept-Encoding, Cookie");
      // The shared page's policy names its inline script's hash, never the first visitor's nonce.
      expect(response.headers["content-security-policy"]).toBe(`script-src 'self' ${sha256(script)}`);
    }
    expect([plain, gzip, brotli].map((response) => response.headers["x-page-cache"])).toEqual(["hit", "hit", "hit"]);
  });

  it("passes a view with another cookie, a query string or another method to the site", async () => {
    await get("/page");
    for (const response of [
      await get("/page", { Cookie: "session=1" }),
      await get("/page?x=1"),
      await get("/page", {}, "HEAD"),
    ]) {
      expect(response.status).toBe(299);
      expect(response.headers["x-page-cache"]).toBeUndefined();
    }
  });
});
