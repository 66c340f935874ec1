import { describe, expect, it } from "vitest";
import { bearerMatches } from "./metrics-endpoint.server";

const TOKEN = "0123456789abcdef0123456789abcdef";

describe("bearerMatches", () => {
  it("accepts the token as a bearer token, the scheme in any case", () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`bearer ${TOKEN}`, TOKEN)).toBe(true);
  });

  it.each([
    ["no header", null],
    ["another token", "Bearer 0123456789abcdef0123456789abcdeX"],
    ["a prefix of the token", `Bearer ${TOKEN.slice(0, 16)}`],
    ["the token and more", `Bearer ${TOKEN}0`],
    ["the token without its scheme", TOKEN],
    ["another scheme", `Basic ${TOKEN}`],
    ["an empty bearer", "Bearer "],
  ])("refuses %s", (_what, header) => {
    expect(bearerMatches(header, TOKEN)).toBe(false);
  });
});
