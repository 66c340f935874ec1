import { ArrowRight } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/home";
import type { DocumentHandle } from "~/root";
import { ConciergeSection } from "~/features/services/ui/concierge-section";
import { useCurrency } from "~/components/layout/currency-menu";
import { CtaSection } from "~/components/layout/cta-section";
import { HeroSection } from "~/components/layout/hero-section";
import { Illustration } from "~/features/illustrations/ui/illustration";
import { PricingSection } from "~/features/plans/ui/pricing-section";
import { HeadedSection } from "~/components/layout/section-heading";
import { ServiceCards } from "~/features/services/ui/service-cards";
import { PRICING_SECTION_ID } from "~/features/plans/ui/pricing-highlight";
import { Button } from "~/components/ui/button";
import { formatPrice } from "~/lib/currency";
import { lowestPlanPrice } from "~/features/plans/plans";
import { pageMeta } from "~/platform/seo/page-meta";
import { siteConfig } from "../../site.config";

/** Links, native disclosures and forms that post: nothing here needs React in the browser. */
export const handle = { hydrate: false } satisfies DocumentHandle;

export const meta: Route.MetaFunction = (args) => pageMeta({}, args);

function AboutSection() {
  const { whyChooseUs } = siteConfig.content;
  return (
    <HeadedSection
      headingId="about-heading"
      eyebrow={`About ${siteConfig.company.name}`}
      title={whyChooseUs.title}
      lead={`At ${siteConfig.company.name} we take the waiting out of travelling: less time in queues and on hold, more time for the trip itself.`}
      className="px-4 py-16 sm:px-6 sm:py-24"
    >
      <ul className="mx-auto mt-12 grid max-w-6xl gap-8 md:grid-cols-3">
        {whyChooseUs.reasons.map((reason, index) => (
          <li key={reason.title} className="rounded-2xl border bg-card p-6 shadow-sm">
            <span className="text-sm font-bold text-link" aria-hidden="true">
              {String(index + 1).padStart(2, "0")}
            </span>
            <h3 className="mt-2 text-lg font-semibold">{reason.title}</h3>
            <p className="mt-2 text-muted-foreground">{reason.description}</p>
          </li>
        ))}
      </ul>
    </HeadedSection>
  );
}

export default function HomePage() {
  const { hero } = siteConfig.content;
  const currency = useCurrency();
  return (
    <>
      <HeroSection
        eyebrow="Travel membership"
        title={hero.title}
        lead={
          <>
            <p>{hero.subtitle}</p>
            <p className="mt-3 font-semibold text-foreground">
              From {formatPrice(lowestPlanPrice(), currency.code)} per quarter, with a {siteConfig.trialDays}-day free
              trial.
            </p>
          </>
        }
        image={
          <Illustration
            name="hero"
            alt="A plane flying over the clouds above a boarding pass and a suitcase"
            width={520}
            height={420}
            priority
            className="h-auto w-full"
          />
        }
      >
        <div className="flex flex-col gap-3 sm:flex-row">
          <Button asChild size="lg">
            <Link to="/pre-checkout">
              {hero.cta}
              <ArrowRight aria-hidden="true" />
            </Link>
          </Button>
          <Button asChild size="lg" variant="outline">
            <a href={`#${PRICING_SECTION_ID}`}>See the plans</a>
          </Button>
        </div>
      </HeroSection>

      <ConciergeSection />

      <HeadedSection
        headingId="services-heading"
        eyebrow="What's included"
        title="Six services, one membership"
        lead="Everything that makes the airport quicker and the destination easier, in a single quarterly plan."
        className="bg-muted/40 px-4 py-16 sm:px-6 sm:py-24"
      >
        <div className="mx-auto mt-12 max-w-7xl">
          <ServiceCards />
        </div>
      </HeadedSection>

      <PricingSection ctaLabel="Start Now" />

      <AboutSection />

      <CtaSection
        id="get-started-heading"
        title="Ready for easier travel?"
        text={`Try every service free for ${siteConfig.trialDays} days, then keep the plan that suits you or cancel anytime.`}
        action={{ label: "Get Started", to: "/pre-checkout" }}
      />
    </>
  );
}
