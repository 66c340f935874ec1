import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER } from "~/lib/client-address.server";
import { clientAddress } from "./client-address";

let close = () => {};
afterEach(() => close());

/** A server that answers with the client address the middleware put on the request. */
async function echoServer(trustProxy: boolean | string[]) {
  const app = express();
  app.set("trust proxy", trustProxy);
  app.use(clientAddress);
  app.use((req, res) => {
    res.send(req.headers[CLIENT_ADDRESS_HEADER] ?? "");
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  close = () => server.close();
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function addressSeen(url: string, headers: Record<string, string>) {
  return (await fetch(url, { headers })).text();
}

describe("the client address the rate limiter keys on", () => {
  it("is the socket's address when no proxy is trusted, whatever the request claims", async () => {
    const url = await echoServer(false);
    const seen = await addressSeen(url, { "X-Forwarded-For": "203.0.113.9", [CLIENT_ADDRESS_HEADER]: "198.51.100.1" });
    expect(seen).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
  });

  it("comes from X-Forwarded-For when the connecting proxy is trusted", async () => {
    const url = await echoServer(["loopback"]);
    const seen = await addressSeen(url, { "X-Forwarded-For": "203.0.113.9", [CLIENT_ADDRESS_HEADER]: "198.51.100.1" });
    expect(seen).toBe("203.0.113.9");
  });

  it("skips addresses a client prepends to X-Forwarded-For in front of the trusted proxy's entry", async () => {
    const url = await echoServer(["loopback"]);
    expect(await addressSeen(url, { "X-Forwarded-For": "198.51.100.1, 203.0.113.9" })).toBe("203.0.113.9");
  });
});
