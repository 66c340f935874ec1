import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { BODY_LIMITS, bodySizeLimit, sameOriginRequests, servedMethodsOnly } from "./request-guards";

let close = () => {};
afterEach(() => close());

/** A server behind the guards that answers 200 to whatever gets through. */
async function guardedServer(siteUrl?: string) {
  const app = express();
  app.use(servedMethodsOnly, sameOriginRequests(siteUrl), bodySizeLimit);
  app.use((_req, res) => res.send("through"));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  close = () => server.close();
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function statusOf(url: string, init: RequestInit) {
  return (await fetch(url, init)).status;
}

describe("the cross-site request guard", () => {
  it("lets a POST through from the host it was sent to, or from SITE_URL, and refuses any other", async () => {
    const url = await guardedServer("https://www.jetlane.example");
    const post = (headers: Record<string, string>) => statusOf(url, { method: "POST", headers, body: "a=1" });
    expect(await post({ Origin: url })).toBe(200);
    expect(await post({ Origin: "https://www.jetlane.example" })).toBe(200);
    expect(await post({ Referer: `${url}/contact?x=1` })).toBe(200);
    expect(await post({ Origin: "https://jetlane.example" })).toBe(403);
    expect(await post({ Origin: "http://127.0.0.1:1" })).toBe(403);
    expect(await post({ Origin: "null" })).toBe(403);
    expect(await post({ Referer: "https://evil.example/" })).toBe(403);
  });

  it("lets requests naming no origin through, and never checks GET", async () => {
    const url = await guardedServer();
    expect(await statusOf(url, { method: "POST", body: "a=1" })).toBe(200);
    expect(await statusOf(url, { headers: { Origin: "https://evil.example" } })).toBe(200);
  });
});

describe("the body size limit", () => {
  it("refuses a form body over its limit, and allows JSON a larger one", async () => {
    const url = await guardedServer();
    const post = (type: string, size: number) =>
      statusOf(url, { method: "POST", headers: { "Content-Type": type }, body: "x".repeat(size) });
    expect(await post("application/x-www-form-urlencoded", BODY_LIMITS.other)).toBe(200);
    expect(await post("application/x-www-form-urlencoded", BODY_LIMITS.other + 1)).toBe(413);
    expect(await post("application/json", BODY_LIMITS.other + 1)).toBe(200);
    expect(await post("application/json", BODY_LIMITS.json + 1)).toBe(413);
  });
});

describe("the method guard", () => {
  it("lets GET, HEAD and POST through, refuses PUT, PATCH, DELETE and OPTIONS with 405 and anything else with 501", async () => {
    const url = await guardedServer();
    for (const method of ["GET", "HEAD", "POST"]) expect(await statusOf(url, { method }), method).toBe(200);
    for (const method of ["PUT", "PATCH", "DELETE", "OPTIONS"]) {
      const response = await fetch(url, { method });
      expect(response.status, method).toBe(405);
      expect(response.headers.get("Allow")).toBe("GET, HEAD, POST");
      expect(await response.text()).toContain("does not take that kind of request");
    }
    for (const method of ["PROPFIND", "M-SEARCH"]) expect(await statusOf(url, { method }), method).toBe(501);
  });
});
