import type { Route } from "./+types/pre-checkout";
import { PageHeading } from "~/components/layout/page-heading";
import { PlanPicker } from "~/features/plans/ui/plan-picker";
import { pageMeta } from "~/platform/seo/page-meta";
import { siteConfig } from "../../site.config";
import type { DocumentHandle } from "~/root";

/** The tabs switch by a small script of their own (tabs-script.tsx): no React in the browser. */
export const handle = { hydrate: false } satisfies DocumentHandle;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(
    {
      title: "Choose Your Plan",
      description: `Pick the Medium or Premium membership and start your ${siteConfig.trialDays}-day free trial of fast track or automated check-in.`,
    },
    args,
  );

export default function PreCheckoutPage() {
  return (
    <div className="bg-linear-to-b from-primary-light/70 to-background pb-20">
      <PageHeading
        title="Choose Your Plan"
        lead={`Start with a ${siteConfig.trialDays}-day free trial, then one fee every three months. Cancel anytime.`}
      />
      <div className="mx-auto max-w-4xl px-4 sm:px-6">
        <PlanPicker />
      </div>
    </div>
  );
}
