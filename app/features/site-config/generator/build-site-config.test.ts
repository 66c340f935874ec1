import { describe, expect, it } from "vitest";
import { siteConfig } from "../../../../site.config";
import { buildSiteConfig } from "./build-site-config";
import { generatorFormDefaults, generatorFormSchema, MISSING_COMPANY_NAME, toHostName } from "./generator-schema";
import { mapTexts, wordingsOf } from "./wordings";

const rephrased = mapTexts(wordingsOf(siteConfig), (text) => `New: ${text}`);

describe("generatorFormSchema", () => {
  it("requires a company name, with the message the page shows", () => {
    const result = generatorFormSchema.safeParse({ ...generatorFormDefaults(siteConfig), companyName: "  " });
    expect(result.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["companyName", MISSING_COMPANY_NAME],
    ]);
  });

  it("accepts only HSL triplets as colours", () => {
    const result = generatorFormSchema.safeParse({ companyName: "X", primaryColor: "#ff0000", accentColor: "1 2% 3%" });
    expect(result.error?.issues.map((issue) => issue.path.join("."))).toEqual(["primaryColor"]);
  });

  it("lets every other field be empty, and keeps host names without a scheme", () => {
    const parsed = generatorFormSchema.parse({
      companyName: " Skyway ",
      primaryColor: "1 2% 3%",
      accentColor: "4 5% 6%",
      mainDomain: "https://WWW.Skyway.example/home",
    });
    expect(parsed).toMatchObject({
      companyName: "Skyway",
      phone: "",
      fastTrackDomain: "",
      mainDomain: "www.skyway.example",
    });
  });
});

describe("toHostName", () => {
  it("keeps the host of whatever was typed", () => {
    expect(toHostName(" http://fast.Example.com:8080/x?y#z ")).toBe("fast.example.com:8080");
    expect(toHostName("checkin.example.com")).toBe("checkin.example.com");
  });
});

describe("buildSiteConfig", () => {
  const form = generatorFormSchema.parse({
    companyName: "Skyway Travel",
    phone: "+44 20 7946 0000",
    email: "hello@skyway.example",
    address: "1 Sky Road, London, United Kingdom",
    mainDomain: "www.skyway.example",
    fastTrackDomain: "fast.skyway.example",
    checkInDomain: "checkin.skyway.example",
    primaryColor: "350 70% 50%",
    accentColor: "160 60% 40%",
  });
  const config = buildSiteConfig(siteConfig, form, rephrased);

  it("takes the company, domains and colours from the form", () => {
    expect(config.company).toEqual({
      name: "Skyway Travel",
      legalName: "Skyway Travel",
      phone: "+44 20 7946 0000",
      email: "hello@skyway.example",
      address: "1 Sky Road, London, United Kingdom",
      // The form does not ask for it: the operator sets the new company's before its first invoice.
      vatNumber: siteConfig.company.vatNumber,
    });
    expect(config.domains).toEqual({
      main: "www.skyway.example",
      fastTrack: "fast.skyway.example",
      checkIn: "checkin.skyway.example",
      memberArea: null,
    });
    expect(config.colors).toMatchObject({ primary: "350 70% 50%", primaryDark: "350 70% 35%", accent: "160 60% 40%" });
  });

  it("takes every text from the rephrased wordings and keeps plans' ids, names and prices", () => {
    expect(config.content.hero.title).toBe(`New: ${siteConfig.content.hero.title}`);
    expect(config.seo.keywords[0]).toBe(`New: ${siteConfig.seo.keywords[0]}`);
    expect(config.pricing.medium).toEqual({
      ...siteConfig.pricing.medium,
      description: `New: ${siteConfig.pricing.medium.description}`,
      features: siteConfig.pricing.medium.features.map((feature) => `New: ${feature}`),
    });
    expect(config.pricing.premium.price).toBe(79);
    expect(config.fastTrack).toEqual(siteConfig.fastTrack);
    expect(config.trialDays).toBe(3);
  });

  it("starts the new brand without social links", () => {
    expect(Object.values(config.social)).toEqual(["", "", "", ""]);
  });

  it("keeps the current value of a field left empty", () => {
    const sparse = buildSiteConfig(
      siteConfig,
      generatorFormSchema.parse({ companyName: "Skyway", primaryColor: "1 2% 3%", accentColor: "4 5% 6%" }),
      rephrased,
    );
    expect(sparse.company.phone).toBe(siteConfig.company.phone);
    expect(sparse.domains).toEqual(siteConfig.domains);
  });
});
