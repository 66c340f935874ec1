import { describe, expect, it } from "vitest";
import { siteOrigin } from "./site-origin.server";

describe("siteOrigin", () => {
  const request = new Request("http://127.0.0.1:3000/services?plan=medium");

  it("prefers the configured SITE_URL, without its path", () => {
    expect(siteOrigin(request, "https://www.example.com/some/path")).toBe("https://www.example.com");
  });

  it("falls back to the origin the request came in on", () => {
    expect(siteOrigin(request, undefined)).toBe("http://127.0.0.1:3000");
  });
});
