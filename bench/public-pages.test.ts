import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../tests/support/free-port";
import { startStaticBaseline } from "./lib/static-baseline";
import { fetchRaw } from "./public-pages";

/** A page answered as the site's page cache answers a hit: brotli, its security headers, a request id. */
const BODY = brotliCompressSync(
  Buffer.from(`<!DOCTYPE html><html><body>${"<p>Fast track</p>".repeat(200)}</body></html>`),
);
const PAGE_HEADERS = [
  "X-Page-Cache",
  "hit",
  "Vary",
  "Accept-Encoding, Cookie",
  "content-type",
  "text/html",
  "Content-Security-Policy",
  "default-src 'self'; script-src 'self'; object-src 'none'",
  "X-Frame-Options",
  "DENY",
  "Content-Encoding",
  "br",
  "Content-Length",
  String(BODY.length),
  "X-Request-Id",
  "3652bc68-1d90-4625-b49a-7908ef7141b7",
];

/** The headers of one answer of `origin`, but those node:http writes itself, and its body. */
function answer(origin: string): Promise<{ headers: string[]; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(origin, { headers: { "Accept-Encoding": "gzip, br" } }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const headers: string[] = [];
        for (let i = 0; i < response.rawHeaders.length; i += 2) {
          const name = response.rawHeaders[i]!;
          if (!["date", "connection", "keep-alive"].includes(name.toLowerCase()))
            headers.push(name, response.rawHeaders[i + 1]!);
        }
        resolve({ headers, body: Buffer.concat(chunks) });
      });
    })
      .on("error", reject)
      .end();
  });
}

describe("the node:http baseline a public page is compared with", () => {
  let site: Server;
  let origin: string;

  beforeAll(async () => {
    site = createServer((_request, response) => {
      response.writeHead(200, PAGE_HEADERS);
      response.end(BODY);
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  });

  afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));

  it("sends the page's bytes with every header the page was sent with", async () => {
    const page = await fetchRaw(origin, { "Accept-Encoding": "gzip, br" });
    expect(page.encoding).toBe("br");
    const baseline = await startStaticBaseline(await freePort(), page.body, page.headers);
    try {
      const [sent, copied] = await Promise.all([answer(origin), answer(baseline.origin)]);
      expect(copied.body.equals(BODY)).toBe(true);
      expect(copied.headers).toEqual(sent.headers);
    } finally {
      await baseline.stop();
    }
  });
});
