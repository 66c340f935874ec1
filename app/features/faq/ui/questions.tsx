import type { ReactNode } from "react";
import { Link } from "react-router";
import { Price } from "~/components/ui/price";
import { siteConfig } from "../../../../site.config";

const { company, pricing, trialDays } = siteConfig;

export interface FaqItem {
  id: string;
  question: string;
  answer: ReactNode;
}

/** The five questions of the FAQ page, answered for this membership. */
export const FAQ_ITEMS: FaqItem[] = [
  {
    id: "how-it-works",
    question: "How does the membership work?",
    answer: (
      <>
        <p>
          Choose the {pricing.medium.name} or {pricing.premium.name} plan and start with a {trialDays}-day free trial.
          Your membership brings together fast-track security lanes at over 300 connected airports, automated flight
          check-in, lounge discounts, skip-the-line entry to museums and attractions, travel e-books and help from our
          concierge.
        </p>
        <p>
          Before a trip, sign in to the member portal to book your fast track, register your flight for automated
          check-in or ask the concierge for help.
        </p>
      </>
    ),
  },
  {
    id: "when-does-it-start",
    question: "When does my membership start?",
    answer: (
      <p>
        Immediately after you sign up. You get access to the member portal straight away and can use your benefits on
        your very next trip.
      </p>
    ),
  },
  {
    id: "automatic-renewal",
    question: "Does my membership renew automatically?",
    answer: (
      <p>
        Yes. After the free trial your plan renews automatically {pricing.premium.period.toLowerCase()}: for example,
        the {pricing.premium.name} plan renews at <Price amount={pricing.premium.price} /> and the {pricing.medium.name}{" "}
        plan at <Price amount={pricing.medium.price} />. You can cancel before any renewal; see our{" "}
        <Link to="/subscription-terms">Subscription Terms</Link>.
      </p>
    ),
  },
  {
    id: "cancelling",
    question: "Can I cancel at any time?",
    answer: (
      <p>
        Yes, you can cancel whenever you like, without giving a reason: on our{" "}
        <Link to="/unsubscribe">Unsubscribe</Link> page (we e-mail you a link to confirm) or by contacting{" "}
        {company.name} customer service. Your membership then ends when the free trial or the quarter you paid for ends:
        cancel during the trial and you pay nothing; after that, no further fee is charged.
      </p>
    ),
  },
  {
    id: "usage-limits",
    question: "Is there a limit to how often I can use the services?",
    answer: (
      <p>
        Most services can be used as often as you like, on every trip. Free fast tracks are counted: the{" "}
        {pricing.medium.name} plan includes {pricing.medium.freeFastTracksPerMonth} free fast-track accesses per
        calendar month and the {pricing.premium.name} plan {pricing.premium.freeFastTracksPerMonth}, one per passenger,
        from your first paid quarter (not during the free trial). Book them signed in to your account; further
        passengers pay the normal price. Attraction discounts can also extend to the companions travelling with you.
      </p>
    ),
  },
];
