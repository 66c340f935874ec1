import type { Route } from "./+types/fast-track";
import type { DocumentHandle } from "~/root";
import { useCurrency } from "~/components/layout/currency-menu";
import { CtaSection } from "~/components/layout/cta-section";
import { HeroSection } from "~/components/layout/hero-section";
import { Illustration } from "~/features/illustrations/ui/illustration";
import { formatPrice } from "~/lib/currency";
import {
  AirportPicker,
  BOOKING_PATH,
  FastTrackBenefits,
  PremiumFastTrackSection,
} from "~/features/booking/ui/fast-track-landing";
import { pageMeta } from "~/platform/seo/page-meta";
import { trialNote } from "~/features/booking/pricing";
import { siteConfig } from "../../site.config";

/** Links, native disclosures and forms that post: nothing here needs React in the browser. */
export const handle = { hydrate: false } satisfies DocumentHandle;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(
    {
      title: "Airport Fast Track",
      description:
        "Less queuing at airports, faster boarding to gate: book a fast-track lane through security at over 300 connected airports.",
    },
    args,
  );

export default function FastTrackPage() {
  const currency = useCurrency();
  const { fastTrack } = siteConfig;
  return (
    <>
      <HeroSection
        eyebrow="Airport Fast Track"
        // A no-break space keeps the dash off the start of the second line.
        title={`Fast Track\u00a0- from ${formatPrice(fastTrack.fromPrice, currency.code)}`}
        lead={<p>Less queuing at airports, faster boarding to gate</p>}
        image={
          <Illustration
            name="fast-track"
            alt="A long queue at airport security beside an empty fast-track lane with one traveller walking through"
            width={480}
            height={400}
            priority
            className="h-auto w-full"
          />
        }
      >
        <AirportPicker />
      </HeroSection>

      <FastTrackBenefits />

      <PremiumFastTrackSection trialNote={trialNote(currency.code)} />

      <CtaSection
        id="availability-heading"
        title="SEE YOUR AIRPORT AVAILABILITY"
        text="Over 300 connected airports offer a fast-track lane. Pick your airport and flight date and book in two minutes."
        action={{ label: "Book Now", to: BOOKING_PATH }}
      />
    </>
  );
}
