import { describe, expect, it } from "vitest";
import { lowestPlanPrice, parsePlanId, plansInOrder, preCheckoutHref } from "./plans";
import { siteConfig } from "../../../site.config";

describe("parsePlanId", () => {
  it("accepts medium and premium", () => {
    expect(parsePlanId("medium")).toBe("medium");
    expect(parsePlanId("premium")).toBe("premium");
  });

  it("falls back to premium for a missing or unknown plan", () => {
    for (const value of [null, undefined, "", "gold", "Medium", "medium "]) {
      expect(parsePlanId(value)).toBe("premium");
    }
  });
});

describe("plans", () => {
  it("lists medium before premium, as configured", () => {
    expect(plansInOrder().map((plan) => [plan.id, plan.price])).toEqual([
      ["medium", siteConfig.pricing.medium.price],
      ["premium", siteConfig.pricing.premium.price],
    ]);
  });

  it("advertises the cheapest plan's price", () => {
    const pricing = {
      medium: { ...siteConfig.pricing.medium, price: 30 },
      premium: { ...siteConfig.pricing.premium, price: 20 },
    };
    expect(lowestPlanPrice(pricing)).toBe(20);
    expect(lowestPlanPrice()).toBe(49);
  });

  it("links a plan to the selection page", () => {
    expect(preCheckoutHref("medium")).toBe("/pre-checkout?plan=medium");
  });
});
