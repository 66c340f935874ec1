import { randomInt } from "node:crypto";

/**
 * The short voucher code a person reads out at a lane: nine random symbols and a check symbol in
 * groups, "K7QM-3XPA-TW". Crockford's base32 alphabet has no I, L, O or U, so nothing looks alike.
 *
 * The check symbol makes the weighted sum of all ten symbols zero in GF(32), each position with its
 * own non-zero weight (the check's weight is 1). Changing one symbol changes the sum by
 * weight × difference, never zero in a field; swapping two different neighbours changes it by
 * (weight difference) × (symbol difference), never zero either: both mistakes are always caught.
 */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const DATA_LENGTH = 9;
const SHAPE = /^[0-9A-HJKMNP-TV-Z]{10}$/;

/** Multiplication in GF(2^5) modulo the primitive polynomial x^5 + x^2 + 1. */
function gfMultiply(a: number, b: number): number {
  let product = 0;
  for (let x = a, y = b; y > 0; y >>= 1) {
    if (y & 1) product ^= x;
    x <<= 1;
    if (x & 0b100000) x ^= 0b100101;
  }
  return product;
}

/** α^(i+1) for data position i, α = x: distinct, non-zero, and never 1 (the check symbol's weight). */
const WEIGHTS = Array.from({ length: DATA_LENGTH }, (_, position) => {
  let weight = 1;
  for (let step = 0; step <= position; step++) weight = gfMultiply(weight, 2);
  return weight;
});

function weightedSum(values: number[]): number {
  return values.reduce((sum, value, position) => sum ^ gfMultiply(WEIGHTS[position]!, value), 0);
}

function format(symbols: string): string {
  return `${symbols.slice(0, 4)}-${symbols.slice(4, 8)}-${symbols.slice(8)}`;
}

/** A new random short code, formatted. */
export function newVoucherShortCode(): string {
  const values = Array.from({ length: DATA_LENGTH }, () => randomInt(ALPHABET.length));
  return format([...values, weightedSum(values)].map((value) => ALPHABET[value]).join(""));
}

/**
 * What a person typed, as stored: case, spaces and dashes ignored, and the letters Crockford reads
 * as digits (I and L as 1, O as 0) taken as those. Null when it is no short code or its check
 * symbol does not match, so a mistyped code is refused before any lookup.
 */
export function normaliseVoucherShortCode(input: string): string | null {
  const symbols = input.toUpperCase().replace(/[\s-]/g, "").replace(/[IL]/g, "1").replace(/O/g, "0");
  if (!SHAPE.test(symbols)) return null;
  const values = [...symbols].map((symbol) => ALPHABET.indexOf(symbol));
  if (weightedSum(values.slice(0, DATA_LENGTH)) !== values[DATA_LENGTH]) return null;
  return format(symbols);
}
