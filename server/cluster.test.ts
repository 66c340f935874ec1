import { describe, expect, it } from "vitest";
import { restartDelay } from "./cluster";

describe("restartDelay", () => {
  it("replaces a worker at once after a steady run, then backs off on deaths in a row up to 30 s", () => {
    expect([0, 1, 2, 3, 7, 8, 50].map(restartDelay)).toEqual([0, 500, 1_000, 2_000, 30_000, 30_000, 30_000]);
  });
});
