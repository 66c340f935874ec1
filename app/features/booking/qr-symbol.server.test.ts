import jsQR from "jsqr";
import { PNG } from "pngjs";
import QRCode, { type QRCodeSegment } from "qrcode";
import { describe, expect, it } from "vitest";
import { qrSymbol } from "./qr-symbol.server";
import { voucherCheckUrl, voucherCode, voucherQrPng } from "./voucher.server";

/** A fixed sequence of pseudo-random numbers in [0, 1), the same at every run. */
function numbers(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const ORIGINS = ["https://fasttrack.example.com", "http://127.0.0.1:3000", "https://WWW.EXAMPLE.NL", "https://a.b"];

/** Voucher links as the mails carry them: random order ids, each signed with the test's key. */
function voucherLinks(count: number): string[] {
  const next = numbers(29);
  return Array.from({ length: count }, (_, i) => {
    const hex = Array.from({ length: 32 }, () => "0123456789abcdef"[Math.floor(next() * 16)]).join("");
    const orderId = hex.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, "$1-$2-$3-$4-$5");
    return voucherCheckUrl(ORIGINS[i % ORIGINS.length]!, voucherCode(orderId));
  });
}

/** Texts that make the modes compete: runs of digits, capitals and lower case of every length. */
function mixedTexts(count: number): string[] {
  const next = numbers(7);
  const alphabets = ["0123456789", "ABCDEFXYZ:/.-", "abcxyz_?&="];
  return Array.from({ length: count }, () => {
    let text = "";
    while (text.length < 20 + next() * 80) {
      const alphabet = alphabets[Math.floor(next() * alphabets.length)]!;
      const run = 1 + Math.floor(next() * 14);
      for (let i = 0; i < run; i++) text += alphabet[Math.floor(next() * alphabet.length)];
    }
    return text;
  });
}

/** The data bits of a symbol's segments: each one's mode and count header, then its characters. */
function dataBits(symbol: QRCode.QRCode): number {
  const countBits = { Numeric: 10, Alphanumeric: 9, Byte: 8, Kanji: 8 };
  return symbol.segments.reduce((bits, segment) => bits + 4 + countBits[segment.mode.id] + segment.getBitsLength(), 0);
}

describe("qrSymbol", () => {
  const links = voucherLinks(400);

  it("draws every voucher link as qrcode would, in no bigger a symbol, module for module", () => {
    for (const link of links) {
      const { input, maskPattern, modules } = qrSymbol(link);
      expect(Array.isArray(input)).toBe(true);
      // qrcode's own search, from the same segments: the mask it settles on and the symbol it draws must be ours.
      const searched = QRCode.create(input, { errorCorrectionLevel: "M" });
      expect(maskPattern).toBe(searched.maskPattern);
      expect(modules.size).toBe(searched.modules.size);
      expect(modules.data).toEqual(searched.modules.data);
      expect(searched.version).toBeLessThanOrEqual(QRCode.create(link, { errorCorrectionLevel: "M" }).version);
    }
  });

  it("never needs more data bits than qrcode's own segmentation of the same text", () => {
    for (const text of [...mixedTexts(300), "0123456789", "HELLO WORLD 42", "a", "1"]) {
      const segments = qrSymbol(text).input as QRCodeSegment[];
      expect(segments.map((segment) => segment.data).join("")).toBe(text);
      const ours = QRCode.create(segments, { errorCorrectionLevel: "M", maskPattern: 0 });
      const theirs = QRCode.create(text, { errorCorrectionLevel: "M", maskPattern: 0 });
      expect(dataBits(ours), text).toBeLessThanOrEqual(dataBits(theirs));
    }
  });

  it("gives a symbol a scanner reads back as the link", () => {
    for (const link of links.slice(0, 12)) {
      const image = PNG.sync.read(Buffer.from(voucherQrPng(link), "base64"));
      const read = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
      expect(read?.data).toBe(link);
    }
  });

  it("leaves to qrcode what it was not made for: text beyond ASCII, and text longer than version 9 holds", () => {
    for (const text of ["https://café.example/é", "x".repeat(300)]) {
      const { input, maskPattern, modules } = qrSymbol(text);
      expect(input).toBe(text);
      expect(maskPattern).toBeUndefined();
      expect(modules.data).toEqual(QRCode.create(text, { errorCorrectionLevel: "M" }).modules.data);
    }
  });
});
