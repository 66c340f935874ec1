import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { newVoucherShortCode, normaliseVoucherShortCode } from "./voucher-short-code";

const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const codes = fc.constant(null).map(() => newVoucherShortCode());

describe("voucher short codes", () => {
  it("look like K7QM-3XPA-T9 and are accepted as they are", () => {
    fc.assert(
      fc.property(codes, (code) => {
        expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{2}$/);
        expect(normaliseVoucherShortCode(code)).toBe(code);
      }),
    );
  });

  it("are read whatever the case, spaces, dashes, and I, L or O typed for 1 and 0", () => {
    fc.assert(
      fc.property(codes, (code) => {
        const typed = ` ${code.toLowerCase().replaceAll("-", " ").replaceAll("1", "l").replaceAll("0", "O")} `;
        expect(normaliseVoucherShortCode(typed)).toBe(code);
        expect(normaliseVoucherShortCode(code.replaceAll("-", ""))).toBe(code);
      }),
    );
  });

  it("refuse every code with one wrong symbol", () => {
    fc.assert(
      fc.property(codes, fc.nat(9), fc.integer({ min: 1, max: 31 }), (code, position, shift) => {
        const symbols = [...code.replaceAll("-", "")];
        symbols[position] = ALPHABET[(ALPHABET.indexOf(symbols[position]!) + shift) % 32]!;
        expect(normaliseVoucherShortCode(symbols.join(""))).toBeNull();
      }),
    );
  });

  it("refuse every code with two different neighbours swapped", () => {
    fc.assert(
      fc.property(codes, fc.nat(8), (code, position) => {
        const symbols = [...code.replaceAll("-", "")];
        fc.pre(symbols[position] !== symbols[position + 1]);
        [symbols[position], symbols[position + 1]] = [symbols[position + 1]!, symbols[position]!];
        expect(normaliseVoucherShortCode(symbols.join(""))).toBeNull();
      }),
    );
  });

  it("refuse what is not a short code", () => {
    for (const input of ["", "K7QM-3XPA-T", "K7QM-3XPA-T9X", "K7QM-3XPA-U9", "v1.abc.def", "K7QM_3XPA_T9"]) {
      expect(normaliseVoucherShortCode(input)).toBeNull();
    }
  });

  it("are random enough not to repeat in ten thousand draws", () => {
    expect(new Set(Array.from({ length: 10_000 }, newVoucherShortCode)).size).toBe(10_000);
  });
});
