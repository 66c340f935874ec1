import { describe, expect, it } from "vitest";
import { axisMaximum } from "./bar-chart";

describe("the bar chart's axis", () => {
  it("tops at a round value at least as large as the tallest bar", () => {
    expect([0, 1, 3, 7, 12, 3300, 4400, 99_999].map(axisMaximum)).toEqual([1, 1, 5, 10, 20, 5000, 5000, 100_000]);
  });
});
