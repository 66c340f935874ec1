import { ArrowRight, Headset, LifeBuoy } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/services";
import { ConciergeSection } from "~/features/services/ui/concierge-section";
import { CtaSection } from "~/components/layout/cta-section";
import { HeroSection } from "~/components/layout/hero-section";
import { Illustration } from "~/features/illustrations/ui/illustration";
import { telHref } from "~/components/layout/nav-links";
import { PricingSection } from "~/features/plans/ui/pricing-section";
import { HeadedSection } from "~/components/layout/section-heading";
import { Button } from "~/components/ui/button";
import { pageMeta } from "~/platform/seo/page-meta";
import { ServicesTabs } from "~/features/services/ui/services-tabs";
import { siteConfig } from "../../site.config";
import { ServicesContactForm } from "~/features/messages/ui/services-contact-form";
import { SUPPORT_HOURS } from "~/features/support/support-hours";
import type { DocumentHandle } from "~/root";

/** The tabs switch by a small script of their own (tabs-script.tsx), and the contact form posts. */
export const handle = { hydrate: false } satisfies DocumentHandle;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(
    {
      title: "Our Services",
      description:
        "Airport fast track, automated check-in, lounge discounts, skip-the-line attractions, travel e-books and a personal concierge in one membership.",
    },
    args,
  );

function AssistanceSection() {
  const { company } = siteConfig;
  return (
    <div className="bg-muted/40 px-4 py-16 sm:px-6 sm:py-20">
      <div className="mx-auto grid max-w-6xl gap-8 md:grid-cols-2">
        <section aria-labelledby="hub-heading" className="rounded-2xl border bg-card p-8 shadow-sm">
          <LifeBuoy className="size-8 text-link" aria-hidden="true" />
          <h2 id="hub-heading" className="mt-4 text-2xl font-bold tracking-tight">
            Your travel assistance hub
          </h2>
          <p className="mt-3 text-muted-foreground">
            Your membership keeps every part of the trip in one place: fast-track vouchers, check-in confirmations and
            boarding passes, attraction tickets, e-books and your conversations with the concierge. Open the member area
            before you leave, at the airport or at your destination and find what you need in seconds.
          </p>
        </section>
        <section aria-labelledby="support-heading" className="rounded-2xl border bg-card p-8 shadow-sm">
          <Headset className="size-8 text-link" aria-hidden="true" />
          <h2 id="support-heading" className="mt-4 text-2xl font-bold tracking-tight">
            24/7 support
          </h2>
          <p className="mt-3 text-muted-foreground">
            {`Travel does not keep office hours, so help is available 24/7: send us a message at any time and it is waiting for the team when they start. Our advisers answer by phone, e-mail and chat ${SUPPORT_HOURS}.`}
          </p>
          <p className="mt-4 flex flex-wrap gap-x-6 gap-y-2 font-semibold">
            <a href={telHref(company.phone)} className="text-link hover:underline">
              {company.phone}
            </a>
            <a href={`mailto:${company.email}`} className="text-link hover:underline">
              {company.email}
            </a>
          </p>
        </section>
      </div>
    </div>
  );
}

export default function ServicesPage() {
  return (
    <>
      <HeroSection
        eyebrow="Services"
        title="Our Services"
        lead={`Fast track, automated check-in, lounge discounts, skip-the-line attractions, travel e-books and a personal concierge: everything ${siteConfig.company.name} members use to travel with less waiting.`}
        image={
          <Illustration
            name="services"
            alt="A globe with flight routes between destinations"
            width={480}
            height={400}
            priority
            className="h-auto w-full"
          />
        }
      >
        <Button asChild size="lg">
          <Link to="/pre-checkout">
            Start Now
            <ArrowRight aria-hidden="true" />
          </Link>
        </Button>
      </HeroSection>

      <ServicesTabs />

      <ConciergeSection detailed />

      <AssistanceSection />

      <PricingSection ctaLabel="Try Now" />

      <HeadedSection
        id="contact"
        headingId="contact-heading"
        title="Contact Us"
        lead="A question about a service or your membership? Send us a message and we will answer by e-mail."
        className="scroll-mt-16 px-4 py-16 sm:px-6 sm:py-20"
      >
        <div className="mx-auto mt-10 max-w-2xl">
          <ServicesContactForm />
        </div>
      </HeadedSection>

      <CtaSection
        id="start-now-heading"
        title="Start travelling the easy way"
        text={`Every plan begins with a ${siteConfig.trialDays}-day free trial. Pick yours in a minute.`}
        action={{ label: "Start Now", to: "/pre-checkout" }}
      />
    </>
  );
}
