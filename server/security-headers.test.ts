import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, stripeSources } from "./security-headers";

const directive = (policy: string, name: string) => policy.split("; ").find((part) => part.startsWith(`${name} `));

describe("the Content Security Policy", () => {
  it("names no other origin and no frame source in sandbox mode", () => {
    const policy = contentSecurityPolicy(["'nonce-abc'"], { reportOnly: false });
    expect(directive(policy, "script-src")).toBe("script-src 'self' 'nonce-abc'");
    expect(directive(policy, "connect-src")).toBe("connect-src 'self'");
    expect(directive(policy, "frame-src")).toBeUndefined();
  });

  it("adds Stripe.js, its frames and Stripe's API in Stripe mode", () => {
    const thirdParty = stripeSources({ scriptUrl: "https://js.stripe.com/v3/" });
    const policy = contentSecurityPolicy(["'nonce-abc'"], { reportOnly: false, thirdParty });
    expect(directive(policy, "script-src")).toBe("script-src 'self' 'nonce-abc' https://js.stripe.com");
    expect(directive(policy, "frame-src")).toBe("frame-src 'self' https://js.stripe.com https://hooks.stripe.com");
    expect(directive(policy, "connect-src")).toBe("connect-src 'self' https://api.stripe.com");
  });

  it("follows a local Stripe-compatible server's addresses", () => {
    const thirdParty = stripeSources({ scriptUrl: "http://127.0.0.1:12111/v3/", apiBase: "http://127.0.0.1:12111" });
    expect(thirdParty).toEqual({
      script: ["http://127.0.0.1:12111"],
      frame: ["http://127.0.0.1:12111"],
      connect: ["http://127.0.0.1:12111"],
    });
  });
});
