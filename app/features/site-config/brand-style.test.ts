import { describe, expect, it } from "vitest";
import { siteConfig } from "../../../site.config";
import { brandCssVariables } from "./brand-style";
import { contrastRatio, parseHslTriplet } from "~/lib/hsl";

const colors = {
  primary: "205 85% 45%",
  primaryLight: "205 85% 92%",
  primaryDark: "205 85% 30%",
  accent: "42 95% 55%",
  secondary: "205 40% 96%",
};

describe("brandCssVariables", () => {
  it("writes each brand colour as an HSL-triplet variable", () => {
    const css = brandCssVariables(colors);
    expect(css).toContain("--primary:205 85% 45%;");
    expect(css).toContain("--primary-light:205 85% 92%;");
    expect(css).toContain("--primary-dark:205 85% 30%;");
    expect(css).toContain("--accent:42 95% 55%;");
    expect(css).toContain("--secondary:205 40% 96%;");
  });

  it("derives legible text colours from the brand", () => {
    const css = brandCssVariables(colors);
    expect(css).toContain("--accent-foreground:222 47% 5%;");
    const link = parseHslTriplet(/--link:([^;]+);/.exec(css)![1]!)!;
    for (const background of ["0 0% 100%", colors.primaryLight]) {
      expect(contrastRatio(link, parseHslTriplet(background)!)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("names the bad colour when site.config.ts holds something else", () => {
    expect(() => brandCssVariables({ ...colors, accent: "#f5b70a" })).toThrow(/colors\.accent/);
  });

  it("accepts the committed site.config.ts", () => {
    expect(() => brandCssVariables(siteConfig.colors)).not.toThrow();
  });
});
