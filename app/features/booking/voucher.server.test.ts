import { describe, expect, it, vi } from "vitest";
import { verifyVoucherCode, voucherCode, voucherQrSvg } from "./voucher.server";

vi.hoisted(() => {
  process.env.APP_SECRET = "voucher-test-secret-".padEnd(40, "x");
});

const orderId = "7f0c7e52-3f59-4a55-9a3e-1f7d0c4c1a11";

describe("voucher codes", () => {
  it("name their order and verify", () => {
    const code = voucherCode(orderId);
    expect(code).toMatch(/^v1\.7f0c7e523f594a559a3e1f7d0c4c1a11\.[A-Za-z0-9_-]{43}$/);
    expect(verifyVoucherCode(code)).toBe(orderId);
  });

  it("are refused once any character is changed", () => {
    const code = voucherCode(orderId);
    for (const index of [3, 20, code.length - 1]) {
      const replacement = code[index] === "a" ? "b" : "a";
      const tampered = code.slice(0, index) + replacement + code.slice(index + 1);
      expect(verifyVoucherCode(tampered), `changed at ${index}`).toBeNull();
    }
  });

  it("cannot be moved to another order by swapping the id", () => {
    const other = voucherCode("11111111-2222-4333-8444-555555555555");
    const [, , signature] = voucherCode(orderId).split(".");
    const [version, otherId] = other.split(".");
    expect(verifyVoucherCode(`${version}.${otherId}.${signature}`)).toBeNull();
  });

  it("refuses malformed codes", () => {
    for (const code of ["", "v1", "v1..", "v2.7f0c7e523f594a559a3e1f7d0c4c1a11.x", `${voucherCode(orderId)}=`]) {
      expect(verifyVoucherCode(code)).toBeNull();
    }
  });
});

describe("voucherQrSvg", () => {
  it("draws a QR code as an SVG document", async () => {
    const svg = await voucherQrSvg("https://example.test/api/vouchers/v1.abc");
    expect(svg).toMatch(/^<svg[^>]*viewBox="0 0 \d+ \d+"/);
    expect(svg).toContain("<path");
  });
});
