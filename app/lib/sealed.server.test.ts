import { describe, expect, it } from "vitest";
import { seal, unseal } from "./sealed.server";

describe("seal", () => {
  it("reads back what it sealed, and never shows it in the token", () => {
    const token = seal("address", "ann@example.com");
    expect(token).not.toContain("ann");
    expect(Buffer.from(token, "base64url").toString("latin1")).not.toContain("ann");
    expect(unseal("address", token)).toBe("ann@example.com");
  });

  it("seals the same text differently each time", () => {
    expect(seal("address", "ann@example.com")).not.toBe(seal("address", "ann@example.com"));
  });

  it("refuses a token of another purpose, a changed one, a cut one and plain junk", () => {
    const token = seal("address", "ann@example.com");
    const changed = `${token.slice(0, -2)}${token.endsWith("AA") ? "BA" : "AA"}`;
    expect(unseal("sign-in-link", token)).toBeNull();
    expect(unseal("address", changed)).toBeNull();
    expect(unseal("address", token.slice(0, 20))).toBeNull();
    expect(unseal("address", "not a token!")).toBeNull();
    expect(unseal("address", "")).toBeNull();
  });
});
