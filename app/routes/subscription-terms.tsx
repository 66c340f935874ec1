import type { Route } from "./+types/subscription-terms";
import type { DocumentHandle } from "~/root";
import { SubscriptionTerms } from "~/features/legal/ui/subscription-terms";
import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-terms";
import { pageMeta } from "~/platform/seo/page-meta";
import { siteConfig } from "../../site.config";

/** Links, native disclosures and forms that post: nothing here needs React in the browser. */
export const handle = { hydrate: false } satisfies DocumentHandle;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(
    {
      title: "Subscription Terms",
      description: `How the ${siteConfig.company.name} membership runs: the ${MEMBERSHIP_TERMS.trialDays}-day free trial, quarterly billing, automatic renewal, payment reminders, cancellation and refunds.`,
    },
    args,
  );

export default function SubscriptionTermsPage() {
  return <SubscriptionTerms />;
}
