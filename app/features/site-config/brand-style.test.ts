import { describe, expect, it } from "vitest";
import { brandCssVariables } from "./brand-style";

describe("brandCssVariables", () => {
  it("writes each brand colour as an HSL-triplet variable", () => {
    const css = brandCssVariables({
      primary: "205 85% 45%",
      primaryLight: "205 85% 92%",
      primaryDark: "205 85% 30%",
      accent: "42 95% 55%",
      secondary: "205 40% 96%",
    });
    expect(css).toContain("--primary:205 85% 45%;");
    expect(css).toContain("--primary-light:205 85% 92%;");
    expect(css).toContain("--primary-dark:205 85% 30%;");
    expect(css).toContain("--accent:42 95% 55%;");
    expect(css).toContain("--secondary:205 40% 96%;");
  });
});
