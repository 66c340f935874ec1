import { PNG } from "pngjs";
import QRCode from "qrcode";
import { describe, expect, it } from "vitest";
import { blackAndWhitePng } from "./voucher-png.server";
import { voucherQrPng } from "./voucher.server";

/** Each pixel of a PNG as "#" (dark) or "." (light), row by row. */
function pixels(png: Buffer): string[] {
  const image = PNG.sync.read(png);
  const rows: string[] = [];
  for (let y = 0; y < image.height; y++) {
    let row = "";
    for (let x = 0; x < image.width; x++) row += image.data[(y * image.width + x) * 4]! < 128 ? "#" : ".";
    rows.push(row);
  }
  return rows;
}

describe("blackAndWhitePng", () => {
  it("writes a PNG a decoder reads back pixel for pixel, rows of any width included", () => {
    const isDark = (x: number, y: number) => (x * 7 + y * 3) % 5 === 0;
    const rows = pixels(blackAndWhitePng(13, 4, isDark));
    expect(rows).toHaveLength(4);
    expect(rows.every((row) => row.length === 13)).toBe(true);
    rows.forEach((row, y) => [...row].forEach((pixel, x) => expect(pixel === "#").toBe(isDark(x, y))));
  });
});

describe("voucherQrPng", () => {
  it("draws the same image as qrcode's own PNG renderer, in a fraction of the bytes", async () => {
    const text = "https://example.com/api/vouchers/v1.0123456789abcdef0123456789abcdef.signature";
    const ours = Buffer.from(voucherQrPng(text), "base64");
    const theirs = await QRCode.toBuffer(text, { errorCorrectionLevel: "M", margin: 2, width: 240 });
    expect(pixels(ours)).toEqual(pixels(theirs));
    expect(ours.length).toBeLessThan(theirs.length);
  });
});
