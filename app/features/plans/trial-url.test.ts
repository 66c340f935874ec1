import { describe, expect, it } from "vitest";
import { parseTrialSite, trialSiteDomain, trialUrl } from "./trial-url";
import { siteConfig } from "../../../site.config";

describe("trialUrl", () => {
  const partners = {
    ...siteConfig,
    domains: { ...siteConfig.domains, fastTrack: "fasttrack.jetlane.com", checkIn: "checkin.jetlane.com" },
  };

  it("opens the fast-track partner site with the currency, and the product code for medium", () => {
    expect(trialUrl({ site: "fast-track", planId: "medium", currency: "USD" }, partners)).toBe(
      "https://fasttrack.jetlane.com/?currency=USD&product=_3m_49",
    );
    expect(trialUrl({ site: "fast-track", planId: "premium", currency: "EUR" }, partners)).toBe(
      "https://fasttrack.jetlane.com/?currency=EUR",
    );
  });

  it("opens the check-in partner site for the check-in tab", () => {
    expect(trialUrl({ site: "checkin", planId: "medium", currency: "GBP" }, partners)).toBe(
      "https://checkin.jetlane.com/?currency=GBP&product=_3m_49",
    );
    expect(trialUrl({ site: "checkin", planId: "premium", currency: "USD" }, partners)).toBe(
      "https://checkin.jetlane.com/?currency=USD",
    );
  });

  it("opens this site's membership checkout while the partner domains are placeholders that never resolve", () => {
    expect(trialUrl({ site: "fast-track", planId: "medium", currency: "USD" })).toBe(
      "/membership-checkout?plan=medium&currency=USD&product=_3m_49",
    );
    expect(trialUrl({ site: "checkin", planId: "premium", currency: "EUR" })).toBe(
      "/membership-checkout?plan=premium&currency=EUR",
    );
    for (const domain of ["a.example", "b.test", "c.invalid", "d.localhost"]) {
      const config = { ...siteConfig, domains: { ...siteConfig.domains, checkIn: domain } };
      expect(trialSiteDomain("checkin", config)).toBeNull();
    }
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
