import { describe, expect, it } from "vitest";
import { siteConfig } from "../../../site.config";
import { deriveBrandColors, hexToHslTriplet, hslTripletToHex } from "./derive-colors";

describe("hexToHslTriplet", () => {
  it("converts a colour picker's value", () => {
    expect(hexToHslTriplet("#ff0000")).toBe("0 100% 50%");
    expect(hexToHslTriplet("#008000")).toBe("120 100% 25%");
    expect(hexToHslTriplet("#1582D4")).toBe("206 82% 46%");
    expect(hexToHslTriplet("#ffffff")).toBe("0 0% 100%");
    expect(hexToHslTriplet("#0000ff")).toBe("240 100% 50%");
  });

  it("turns anything that is not a hex colour into black", () => {
    for (const value of ["", "red", "#fff", "#12345g", "205 85% 45%", "#1234567"]) {
      expect(hexToHslTriplet(value)).toBe("0 0% 0%");
    }
  });
});

describe("hslTripletToHex", () => {
  it("converts an HSL triplet for the colour picker, and round-trips", () => {
    expect(hslTripletToHex("0 100% 50%")).toBe("#ff0000");
    expect(hslTripletToHex("120 100% 25%")).toBe("#008000");
    for (const hex of ["#ff0000", "#008000", "#ffffff", "#000000", "#0000ff"]) {
      expect(hslTripletToHex(hexToHslTriplet(hex))).toBe(hex);
    }
  });

  it("has no answer for text that is not a triplet", () => {
    expect(hslTripletToHex("205 85 45")).toBeUndefined();
    expect(hslTripletToHex("#ff0000")).toBeUndefined();
  });
});

describe("deriveBrandColors", () => {
  it("gives the site's own palette from its primary and accent colours", () => {
    expect(deriveBrandColors(siteConfig.colors.primary, siteConfig.colors.accent)).toEqual(siteConfig.colors);
  });

  it("derives a light tint, a dark shade and a pale secondary of the primary hue", () => {
    expect(deriveBrandColors("350 70% 50.4%", "160 60% 40%")).toEqual({
      primary: "350 70% 50%",
      primaryLight: "350 70% 92%",
      primaryDark: "350 70% 35%",
      accent: "160 60% 40%",
      secondary: "350 40% 96%",
    });
    expect(deriveBrandColors("0 20% 10%", "0 0% 0%").primaryDark).toBe("0 20% 0%");
  });

  it("refuses colours that are not triplets", () => {
    expect(() => deriveBrandColors("#ff0000", "42 95% 55%")).toThrow();
  });
});
