import { describe, expect, it } from "vitest";
import { parseTrialSite, trialUrl } from "./trial-url";
import { siteConfig } from "../../../site.config";

describe("trialUrl", () => {
  it("opens the fast-track site with the currency, and the product code for medium", () => {
    expect(trialUrl({ site: "fast-track", planId: "medium", currency: "USD" })).toBe(
      "https://fasttrack.jetlane.example/?currency=USD&product=_3m_49",
    );
    expect(trialUrl({ site: "fast-track", planId: "premium", currency: "EUR" })).toBe(
      "https://fasttrack.jetlane.example/?currency=EUR",
    );
  });

  it("opens the check-in site for the check-in tab", () => {
    expect(trialUrl({ site: "checkin", planId: "medium", currency: "GBP" })).toBe(
      "https://checkin.jetlane.example/?currency=GBP&product=_3m_49",
    );
    expect(trialUrl({ site: "checkin", planId: "premium", currency: "USD" })).toBe(
      "https://checkin.jetlane.example/?currency=USD",
    );
  });

  it("takes the domains and product code from the configuration", () => {
    const config = {
      domains: { ...siteConfig.domains, checkIn: "go.example.org" },
      pricing: { ...siteConfig.pricing, medium: { ...siteConfig.pricing.medium, productCode: "_q_30" } },
    };
    expect(trialUrl({ site: "checkin", planId: "medium", currency: "EUR" }, config)).toBe(
      "https://go.example.org/?currency=EUR&product=_q_30",
    );
  });
});

describe("parseTrialSite", () => {
  it("reads the two tabs and defaults to fast track", () => {
    expect(parseTrialSite("checkin")).toBe("checkin");
    expect(parseTrialSite("fast-track")).toBe("fast-track");
    expect(parseTrialSite(null)).toBe("fast-track");
    expect(parseTrialSite("lounge")).toBe("fast-track");
  });
});
