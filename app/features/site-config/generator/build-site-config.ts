import { deriveBrandColors } from "~/features/site-config/derive-colors";
import type { GeneratorForm } from "./generator-schema";
import type { Plan, SiteConfig } from "~/features/site-config/types";
import type { Wordings } from "./wordings";

function withPlanTexts(plan: Plan, texts: Wordings["plans"]["medium"]): Plan {
  return { ...plan, description: texts.description, features: texts.features };
}

/**
 * The rebranded configuration: `base` (the current site.config.ts) with the company, domains and
 * colours from the generator's form and every marketing text from `wordings`. Plans keep their ids,
 * names, prices and product codes; social links start empty for the new brand.
 */
export function buildSiteConfig(base: SiteConfig, form: GeneratorForm, wordings: Wordings): SiteConfig {
  const main = form.mainDomain || base.domains.main;
  return {
    ...base,
    company: {
      name: form.companyName,
      // The form does not ask for the legal entity; the brand name is the honest default.
      legalName: form.companyName,
      phone: form.phone || base.company.phone,
      email: form.email || base.company.email,
      address: form.address || base.company.address,
      vatNumber: base.company.vatNumber,
    },
    domains: {
      main,
      fastTrack: form.fastTrackDomain || base.domains.fastTrack,
      checkIn: form.checkInDomain || base.domains.checkIn,
      // A separate member site is the operator's to name; the generator never invents one.
      memberArea: base.domains.memberArea,
    },
    colors: deriveBrandColors(form.primaryColor, form.accentColor),
    pricing: {
      medium: withPlanTexts(base.pricing.medium, wordings.plans.medium),
      premium: withPlanTexts(base.pricing.premium, wordings.plans.premium),
    },
    content: {
      hero: wordings.hero,
      services: wordings.services,
      concierge: wordings.concierge,
      whyChooseUs: wordings.whyChooseUs,
    },
    seo: wordings.seo,
    social: { facebook: "", twitter: "", instagram: "", linkedin: "" },
  };
}
