import { describe, expect, it } from "vitest";
import { replaceBrandName } from "./brand-name";

describe("replaceBrandName", () => {
  it("replaces every whole-word mention, in any case, possessives included", () => {
    expect(replaceBrandName("Jetlane: why JETLANE? jetlane's team.", "Jetlane", "Sky & Co")).toBe(
      "Sky & Co: why Sky & Co? Sky & Co's team.",
    );
  });

  it("leaves longer words alone and treats special characters literally", () => {
    expect(replaceBrandName("Jetlanes and Jetlane", "Jetlane", "X")).toBe("Jetlanes and X");
    expect(replaceBrandName("Fly A+B now, or AxB", "A+B", "$& $1")).toBe("Fly $& $1 now, or AxB");
    expect(replaceBrandName("Blue  Gate Travel", "Blue Gate", "Red")).toBe("Red Travel");
  });

  it("changes nothing for an empty brand", () => {
    expect(replaceBrandName("Text", " ", "X")).toBe("Text");
  });
});
