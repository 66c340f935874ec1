import { describe, expect, it } from "vitest";
import { illustrationSvg } from "./illustrations";
import { siteConfig } from "../../../site.config";

describe("illustrationSvg", () => {
  it("draws each illustration as a standalone SVG of a few kilobytes", () => {
    for (const name of ["hero", "concierge", "fast-track", "services"]) {
      const svg = illustrationSvg(`${name}.svg`, siteConfig.colors);
      expect(svg, name).toMatch(
        /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 \d+ \d+" width="\d+" height="\d+">/,
      );
      expect(svg!.length, name).toBeLessThan(6000);
    }
  });

  it("paints with the brand colours, so a rebrand repaints the pictures", () => {
    const svg = illustrationSvg("hero.svg", { ...siteConfig.colors, primary: "0 100% 50%", accent: "120 100% 50%" });
    expect(svg).toContain('fill="#ff0000"');
    expect(svg).toContain('fill="#00ff00"');
  });

  it("knows only its own file names", () => {
    for (const fileName of ["hero.png", "toString.svg", "../hero.svg", "nope.svg", "hero"]) {
      expect(illustrationSvg(fileName, siteConfig.colors), fileName).toBeUndefined();
    }
  });
});
