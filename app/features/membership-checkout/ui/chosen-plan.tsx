import { Link } from "react-router";
import { SectionCard } from "~/components/layout/section-card";
import { SummaryList } from "~/components/layout/summary-list";
import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-terms";
import type { PlanId } from "~/features/site-config/types";
import { formatAmount, formatPrice, type CurrencyCode } from "~/lib/currency";
import { siteConfig } from "../../../../site.config";

/** The plan being started, its price in the chosen currency, and what it gives. */
export function ChosenPlan({ plan: planId, currency }: { plan: PlanId; currency: CurrencyCode }) {
  const plan = siteConfig.pricing[planId];
  const { trialDays, periodMonths } = MEMBERSHIP_TERMS;
  return (
    <SectionCard title="Your plan" className="self-start">
      <SummaryList
        rows={[
          ["Plan", plan.name],
          ["Free trial", `${trialDays} days`],
          ["Then", `${formatPrice(plan.price, currency)} every ${periodMonths} months`],
          ["Due today", formatAmount(0, currency)],
        ]}
      />
      <ul className="mt-4 grid gap-1.5 text-sm text-muted-foreground">
        {plan.features.map((feature) => (
          <li key={feature} className="flex gap-2 before:text-link before:content-['✓']">
            {feature}
          </li>
        ))}
      </ul>
      <p className="mt-4 text-sm">
        <Link to={`/pre-checkout?plan=${planId}`} className="font-medium text-link underline underline-offset-4">
          Change plan
        </Link>
      </p>
    </SectionCard>
  );
}
