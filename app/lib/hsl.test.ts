import { describe, expect, it } from "vitest";
import { contrastRatio, formatHslTriplet, hslToRgb, parseHslTriplet, readableForeground, readableOn } from "./hsl";

describe("parseHslTriplet", () => {
  it("reads an 'H S% L%' triplet", () => {
    expect(parseHslTriplet("205 85% 45%")).toEqual({ h: 205, s: 85, l: 45 });
    expect(parseHslTriplet(" 42 95.5% 55% ")).toEqual({ h: 42, s: 95.5, l: 55 });
  });

  it("refuses anything else", () => {
    for (const value of ["", "205 85 45", "#1182d4", "205 185% 45%", "hsl(205 85% 45%)"]) {
      expect(parseHslTriplet(value)).toBeUndefined();
    }
  });

  it("round-trips through formatHslTriplet", () => {
    expect(formatHslTriplet(parseHslTriplet("205 85% 45%")!)).toBe("205 85% 45%");
  });
});

describe("hslToRgb", () => {
  it("matches known colours", () => {
    expect(hslToRgb({ h: 0, s: 100, l: 50 })).toEqual([255, 0, 0]);
    expect(hslToRgb({ h: 120, s: 100, l: 25 })).toEqual([0, 128, 0]);
    expect(hslToRgb({ h: 0, s: 0, l: 100 })).toEqual([255, 255, 255]);
  });
});

describe("readableForeground", () => {
  it("puts white on a dark brand colour and ink on a light one", () => {
    expect(readableForeground({ h: 205, s: 85, l: 35 })).toBe("0 0% 100%");
    expect(readableForeground({ h: 42, s: 95, l: 55 })).toBe("222 47% 5%");
  });

  it("reaches at least 4.5:1 whatever the lightness", () => {
    for (let l = 0; l <= 100; l += 1) {
      const background = { h: 205, s: 85, l };
      const foreground = parseHslTriplet(readableForeground(background))!;
      expect(contrastRatio(background, foreground)).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe("readableOn", () => {
  it("keeps a colour that already reads on white", () => {
    expect(readableOn({ h: 205, s: 85, l: 30 })).toBe("205 85% 30%");
  });

  it("darkens a light colour until it reaches 4.5:1 on white", () => {
    const text = parseHslTriplet(readableOn({ h: 42, s: 95, l: 55 }))!;
    expect(text.h).toBe(42);
    expect(contrastRatio(text, { h: 0, s: 0, l: 100 })).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio({ ...text, l: text.l + 1 }, { h: 0, s: 0, l: 100 })).toBeLessThan(4.5);
  });
});
