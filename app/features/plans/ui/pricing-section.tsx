import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { formatPrice } from "~/lib/currency";
import { plansInOrder, preCheckoutHref } from "~/features/plans/plans";
import type { Plan, PlanId } from "~/features/site-config/types";
import { cn } from "~/lib/class-names";
import { siteConfig } from "../../../../site.config";
import { CheckList, CheckListItem } from "~/components/ui/check-list";
import { useCurrency } from "~/components/layout/currency-menu";
import { SectionHeading } from "~/components/layout/section-heading";
import { PRICING_SECTION_ID, pricingHighlight } from "./pricing-highlight";

function PlanCard({ plan, ctaLabel, href }: { plan: Plan; ctaLabel: string; href: string }) {
  const currency = useCurrency();
  const nameId = `pricing-plan-${plan.id}`;
  return (
    <article
      aria-labelledby={nameId}
      data-highlighted={plan.highlighted}
      className={cn(
        "relative flex flex-col rounded-2xl border bg-card p-8 shadow-sm",
        plan.highlighted && "border-2 border-primary shadow-xl md:-my-4 md:py-12",
      )}
    >
      {plan.highlighted ? (
        <p className="absolute -top-3.5 left-1/2 -translate-x-1/2 rounded-full bg-primary px-4 py-1 text-xs font-semibold tracking-wide whitespace-nowrap text-primary-foreground uppercase">
          Most popular
        </p>
      ) : null}
      <h3 id={nameId} className="text-xl font-semibold">
        {plan.name}
      </h3>
      <p className="mt-2 text-sm text-muted-foreground">{plan.description}</p>
      <p className="mt-6 flex flex-wrap items-baseline gap-x-2">
        <span className="text-5xl font-extrabold tracking-tight">{formatPrice(plan.price, currency.code)}</span>
        <span className="text-sm font-medium text-muted-foreground">{plan.period}</span>
      </p>
      <CheckList className="mt-8 flex-1 space-y-3 text-sm">
        {plan.features.map((feature) => (
          <CheckListItem key={feature} iconClassName="size-4">
            {feature}
          </CheckListItem>
        ))}
      </CheckList>
      <Button asChild size="lg" variant={plan.highlighted ? "default" : "outline"} className="mt-8 w-full">
        <Link to={href} aria-describedby={nameId}>
          {ctaLabel}
        </Link>
      </Button>
    </article>
  );
}

/**
 * The two membership plans side by side, each with a button to start with that plan. The header
 * highlights itself while this section is at the top of the viewport (`pricing-highlight.ts`).
 */
export function PricingSection({
  ctaLabel,
  planHref = preCheckoutHref,
}: {
  ctaLabel: string;
  planHref?: (planId: PlanId) => string;
}) {
  return (
    <section
      id={PRICING_SECTION_ID}
      aria-labelledby="pricing-heading"
      className="scroll-mt-16 bg-secondary px-4 py-16 sm:px-6 sm:py-24"
      {...pricingHighlight.attributes}
    >
      <script async type="module" src={pricingHighlight.scriptUrl} />
      <SectionHeading
        id="pricing-heading"
        eyebrow="Membership plans"
        title="Choose the plan that fits your travels"
        lead={`Every plan starts with a ${siteConfig.trialDays}-day free trial. Cancel anytime.`}
      />
      <div className="mx-auto mt-14 grid max-w-4xl items-stretch gap-8 md:grid-cols-2">
        {plansInOrder().map((plan) => (
          <PlanCard key={plan.id} plan={plan} ctaLabel={ctaLabel} href={planHref(plan.id)} />
        ))}
      </div>
    </section>
  );
}
