import { ExternalLink, PlaneTakeoff, TicketCheck } from "lucide-react";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { useCurrency } from "~/components/layout/currency-menu";
import { STACK_WITHOUT_SCRIPT, StackTabsWithoutScript } from "~/components/ui/stack-tabs-without-script";
import { TabsScript, tabsInUrlParam } from "~/components/ui/tabs-script";
import { Button } from "~/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { formatPrice } from "~/lib/currency";
import type { PlanId } from "~/features/site-config/types";
import { cn } from "~/lib/class-names";
import { siteConfig } from "../../../../site.config";
import { parsePlanId, plansInOrder } from "~/features/plans/plans";
import { TRIAL_SITES, parseTrialSite, trialSiteDomain, trialUrl, type TrialSite } from "~/features/plans/trial-url";

const SITES: Record<TrialSite, { label: string; heading: string; text: string; icon: typeof PlaneTakeoff }> = {
  "fast-track": {
    label: "Fast Track",
    heading: "Fast Track membership",
    text: "Skip the security queues at over 300 connected airports, with free fast-track accesses every month.",
    icon: PlaneTakeoff,
  },
  checkin: {
    label: "Automated Check-In",
    heading: "Automated Check-In membership",
    text: "We check you in the moment online check-in opens and send your boarding pass, for every flight you add.",
    icon: TicketCheck,
  },
};

/*
 * Each panel renders the trial button of every plan and shows the one whose card is checked, in
 * CSS: so the button is right at once, and also when JavaScript is off. One class per plan id,
 * spelled out so that Tailwind sees it.
 */
const SHOWN_WHEN_CHECKED: Record<PlanId, string> = {
  medium: "hidden group-has-[input[value=medium]:checked]/picker:flex",
  premium: "hidden group-has-[input[value=premium]:checked]/picker:flex",
};

interface Selection {
  planId: PlanId;
  site: TrialSite;
}

/**
 * The chosen plan and tab: from `?plan=` and `?tab=` on arrival, then from the visitor's clicks,
 * which answer at once and are copied into the URL so that a reload keeps them. When the URL
 * changes some other way (back, forward) it wins. Only where React runs the page (reached by a
 * client-side navigation); on the page as first sent, which is not hydrated, tabs.script.js does
 * this from the data-url-param attributes.
 */
function usePreCheckoutSelection() {
  const [searchParams, setSearchParams] = useSearchParams();
  const search = searchParams.toString();
  const fromUrl = (): Selection => ({
    planId: parsePlanId(searchParams.get("plan")),
    site: parseTrialSite(searchParams.get("tab")),
  });
  const [selection, setSelection] = useState(fromUrl);
  const [seenSearch, setSeenSearch] = useState(search);
  if (seenSearch !== search) {
    setSeenSearch(search);
    setSelection(fromUrl());
  }
  const select = (change: Partial<Selection>) => {
    const next = { ...selection, ...change };
    setSelection(next);
    setSearchParams({ plan: next.planId, tab: next.site }, { replace: true, preventScrollReset: true });
  };
  return { ...selection, select };
}

function PlanOptions({
  site,
  planId,
  onSelect,
}: {
  site: TrialSite;
  planId: PlanId;
  onSelect: (planId: PlanId) => void;
}) {
  const currency = useCurrency();
  return (
    <fieldset role="radiogroup">
      <legend className="text-sm font-semibold">Choose your plan</legend>
      <div className="mt-3 grid gap-4 md:grid-cols-2">
        {plansInOrder().map((plan) => {
          const id = `${site}-plan-${plan.id}`;
          const price = formatPrice(plan.price, currency.code);
          return (
            <label
              key={plan.id}
              htmlFor={id}
              className="relative flex cursor-pointer flex-col rounded-2xl border-2 bg-card p-6 shadow-sm transition-colors hover:border-primary/60 has-checked:border-primary has-checked:bg-primary-light/40 has-focus-visible:ring-[3px] has-focus-visible:ring-ring/50"
            >
              <span className="flex items-start justify-between gap-4">
                <span className="flex flex-col">
                  <span className="text-lg font-semibold">{plan.name}</span>
                  <span className="mt-1 text-3xl font-extrabold tracking-tight">
                    {price}
                    <span className="ml-2 text-sm font-medium tracking-normal text-muted-foreground">
                      {plan.period}
                    </span>
                  </span>
                </span>
                <input
                  type="radio"
                  id={id}
                  name={`${site}-plan`}
                  value={plan.id}
                  data-url-param="plan"
                  checked={plan.id === planId}
                  onChange={() => onSelect(plan.id)}
                  aria-label={`${plan.name}, ${price} ${plan.period.toLowerCase()}`}
                  aria-describedby={`${id}-features`}
                  className="mt-1 size-5 shrink-0 accent-primary focus-visible:outline-none"
                />
              </span>
              {plan.highlighted ? (
                <span className="mt-3 w-fit rounded-full bg-primary px-3 py-0.5 text-xs font-semibold tracking-wide text-primary-foreground uppercase">
                  Most popular
                </span>
              ) : null}
              <span id={`${id}-features`} className="mt-4 flex flex-col gap-1.5 text-sm text-muted-foreground">
                {plan.features.map((feature) => (
                  <span key={feature} className="flex gap-2 before:text-link before:content-['✓']">
                    {feature}
                  </span>
                ))}
              </span>
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

function TrialButtons({ site }: { site: TrialSite }) {
  const currency = useCurrency();
  const hintId = `${site}-trial-hint`;
  const partner = trialSiteDomain(site);
  return (
    <div className="mt-8">
      {plansInOrder().map((plan) => (
        <div
          key={plan.id}
          className={cn("flex-col items-center gap-3 sm:flex-row sm:justify-between", SHOWN_WHEN_CHECKED[plan.id])}
        >
          <p className="text-sm text-muted-foreground">
            {plan.name}: {siteConfig.trialDays}-day free trial, then {formatPrice(plan.price, currency.code)}{" "}
            {plan.period.toLowerCase()}. Cancel anytime.
          </p>
          <Button asChild size="lg" className="w-full sm:w-auto">
            <a
              href={trialUrl({ site, planId: plan.id, currency: currency.code })}
              target="_blank"
              rel="noopener noreferrer"
              aria-describedby={hintId}
            >
              Start Free Trial
              <ExternalLink aria-hidden="true" />
            </a>
          </Button>
        </div>
      ))}
      <p id={hintId} className="mt-3 text-center text-xs text-muted-foreground sm:text-right">
        {partner ? `Opens ${partner} in a new tab.` : "Opens the checkout in a new tab."}
      </p>
    </div>
  );
}

/** The two partner sites as tabs, each with the plans to pick from and the button that starts the trial. */
export function PlanPicker() {
  const { planId, site, select } = usePreCheckoutSelection();
  return (
    <Tabs
      value={site}
      onValueChange={(value) => select({ site: parseTrialSite(value) })}
      className="gap-6"
      {...STACK_WITHOUT_SCRIPT}
      {...tabsInUrlParam("tab")}
    >
      <StackTabsWithoutScript />
      <TabsScript />
      <TabsList className="grid h-auto w-full grid-cols-2 gap-1 sm:mx-auto sm:w-fit">
        {TRIAL_SITES.map((id) => {
          const Icon = SITES[id].icon;
          return (
            <TabsTrigger key={id} value={id} className="h-10 px-2 sm:px-4">
              <Icon aria-hidden="true" />
              {SITES[id].label}
            </TabsTrigger>
          );
        })}
      </TabsList>
      {TRIAL_SITES.map((id) => (
        <TabsContent
          key={id}
          value={id}
          forceMount
          className="group/picker rounded-3xl border bg-background p-5 shadow-sm data-[state=inactive]:hidden sm:p-8"
        >
          <h2 className="text-2xl font-bold tracking-tight">{SITES[id].heading}</h2>
          <p className="mt-2 mb-6 text-muted-foreground">{SITES[id].text}</p>
          <PlanOptions site={id} planId={planId} onSelect={(next) => select({ planId: next })} />
          <TrialButtons site={id} />
        </TabsContent>
      ))}
    </Tabs>
  );
}
