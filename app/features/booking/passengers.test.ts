import { describe, expect, it } from "vitest";
import { describePassengers, describePassengersFr } from "./passengers";

describe("describePassengers", () => {
  it.each([
    [1, 0, "1 adult", "1 adulte"],
    [2, 0, "2 adults", "2 adultes"],
    [1, 1, "1 adult, 1 child", "1 adulte, 1 enfant"],
    [2, 3, "2 adults, 3 children", "2 adultes, 3 enfants"],
  ])("%i adults and %i children: %j, %j", (adults, children, english, french) => {
    expect(describePassengers({ adults, children })).toBe(english);
    expect(describePassengersFr({ adults, children })).toBe(french);
  });
});
