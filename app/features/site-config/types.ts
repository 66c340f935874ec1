/** An HSL triplet as CSS variables want it: "205 85% 45%". */
export type HslTriplet = string;

export type PlanId = "medium" | "premium";

export interface Plan {
  id: PlanId;
  name: string;
  /** Whole currency units, shown with the visitor's currency symbol (no conversion). */
  price: number;
  period: string;
  description: string;
  features: string[];
  highlighted: boolean;
  /** Passed to the partner sites as `product` when a trial starts on this plan. */
  productCode?: string;
  /** Free fast-track accesses per Amsterdam calendar month, from the first paid quarter (ADR 029). */
  freeFastTracksPerMonth: number;
}

export interface TitledText {
  title: string;
  description: string;
}

export interface SiteConfig {
  company: {
    name: string;
    legalName: string;
    phone: string;
    email: string;
    address: string;
    /** The VAT identification number the invoices carry ("NL…B01"). */
    vatNumber: string;
  };
  invoices: {
    /**
     * The VAT rates in force, each from its first day (Amsterdam, "YYYY-MM-DD"): a document takes the
     * rate of the day it was issued, so a later change leaves past invoices as they were.
     */
    vatRates: { since: string; percent: number }[];
  };
  /** Host names without a scheme. */
  domains: {
    main: string;
    fastTrack: string;
    checkIn: string;
    /**
     * A separate member site's host name; null for this site's own member area (/account), the
     * default, which works on a fresh clone.
     */
    memberArea: string | null;
  };
  colors: {
    primary: HslTriplet;
    primaryLight: HslTriplet;
    primaryDark: HslTriplet;
    accent: HslTriplet;
    secondary: HslTriplet;
  };
  pricing: Record<PlanId, Plan>;
  /** Fast-track booking prices in whole currency units. */
  fastTrack: {
    fromPrice: number;
    adultPrice: number;
    childPrice: number;
  };
  trialDays: number;
  content: {
    hero: { title: string; subtitle: string; cta: string };
    services: {
      fastTrack: TitledText;
      checkIn: TitledText;
      museums: TitledText;
      lounges: TitledText;
      ebooks: TitledText;
      concierge: TitledText;
    };
    /** The concierge section of the home and services pages. */
    concierge: TitledText & { benefits: TitledText[] };
    whyChooseUs: { title: string; reasons: TitledText[] };
  };
  seo: {
    defaultTitle: string;
    defaultDescription: string;
    keywords: string[];
  };
  social: {
    facebook: string;
    twitter: string;
    instagram: string;
    linkedin: string;
  };
}
