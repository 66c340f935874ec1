import { ArrowRight, Clock, Smile, Sparkles, Zap } from "lucide-react";
import { Link } from "react-router";
import { CheckList, CheckListItem } from "~/components/ui/check-list";
import { HeadedSection, SectionHeading } from "~/components/layout/section-heading";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { NativeSelect } from "~/components/ui/native-select";
import { SUPPORT_HOURS } from "~/features/support/support-hours";
import { LANDING_AIRPORTS } from "~/features/booking/landing-airports";

export const BOOKING_PATH = "/fast-track-form";

/** The airport dropdown and 'Book Now'; the airport is only a prompt and is not passed on. */
export function AirportPicker() {
  return (
    <div className="rounded-2xl border bg-card p-5 shadow-lg sm:p-6">
      <Label htmlFor="landing-airport" className="text-sm font-semibold">
        Departure airport
      </Label>
      <div className="mt-2 flex flex-col gap-3 sm:flex-row">
        <NativeSelect id="landing-airport" defaultValue={LANDING_AIRPORTS[0]?.code} className="h-11">
          {LANDING_AIRPORTS.map((airport) => (
            <option key={airport.code} value={airport.code}>
              {airport.name} ({airport.code})
            </option>
          ))}
        </NativeSelect>
        <Button asChild size="lg" className="shrink-0">
          <Link to={BOOKING_PATH}>
            Book Now
            <ArrowRight aria-hidden="true" />
          </Link>
        </Button>
      </div>
    </div>
  );
}

const BENEFITS = [
  {
    icon: Zap,
    title: "Speedy process",
    description: "Skip the long security queue and reach your gate in minutes instead of waiting in line.",
  },
  {
    icon: Smile,
    title: "Smooth and easy",
    description: "Book online in two minutes, show the voucher on your phone and walk into the dedicated lane.",
  },
  {
    icon: Clock,
    title: "Convenient",
    description: "More time for a coffee, some shopping or the lounge, and no stress about boarding on time.",
  },
] as const;

export function FastTrackBenefits() {
  return (
    <HeadedSection
      headingId="benefits-heading"
      eyebrow="Why Fast Track"
      title="Through security without the wait"
      lead="A dedicated lane to the security checkpoint at over 300 connected airports."
      className="px-4 py-16 sm:px-6 sm:py-24"
    >
      <ul className="mx-auto mt-12 grid max-w-6xl gap-6 md:grid-cols-3">
        {BENEFITS.map(({ icon: Icon, title, description }) => (
          <li key={title} className="rounded-2xl border bg-card p-6 text-center shadow-sm">
            <span className="mx-auto flex size-14 items-center justify-center rounded-full bg-primary-light text-link">
              <Icon className="size-7" aria-hidden="true" />
            </span>
            <h3 className="mt-5 text-lg font-semibold">{title}</h3>
            <p className="mt-2 text-muted-foreground">{description}</p>
          </li>
        ))}
      </ul>
    </HeadedSection>
  );
}

const PREMIUM_BENEFITS = [
  "Priority access to the security checkpoint through the fast-track lane",
  "Valid for every passenger on your booking, adults and children alike",
  "Instant confirmation with a voucher you show on your phone",
  `Help from our customer service ${SUPPORT_HOURS}`,
] as const;

export function PremiumFastTrackSection({ trialNote }: { trialNote: string }) {
  return (
    <section aria-labelledby="premium-heading" className="bg-secondary px-4 py-16 sm:px-6 sm:py-24">
      <div className="mx-auto grid max-w-6xl items-center gap-10 lg:grid-cols-2">
        <SectionHeading
          id="premium-heading"
          eyebrow="Premium"
          title="Premium Fast Track Service"
          lead="Everything you need for a relaxed departure, in one booking."
          align="start"
        />
        <div className="rounded-2xl border bg-card p-6 shadow-sm sm:p-8">
          <CheckList className="space-y-4">
            {PREMIUM_BENEFITS.map((benefit) => (
              <CheckListItem key={benefit}>{benefit}</CheckListItem>
            ))}
          </CheckList>
          <p className="mt-6 flex gap-3 rounded-xl bg-primary-light/60 p-4 text-sm">
            <Sparkles className="mt-0.5 size-4 shrink-0 text-link" aria-hidden="true" />
            {trialNote}
          </p>
        </div>
      </div>
    </section>
  );
}
