import type { Route } from "./+types/terms";
import type { DocumentHandle } from "~/root";
import { TermsAndConditions } from "~/features/legal/ui/terms";
import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-terms";
import { pageMeta } from "~/platform/seo/page-meta";
import { siteConfig } from "../../site.config";

/** Links, native disclosures and forms that post: nothing here needs React in the browser. */
export const handle = { hydrate: false } satisfies DocumentHandle;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(
    {
      title: "Terms and Conditions",
      description: `The terms of the ${siteConfig.company.name} membership and fast-track bookings: free trial, fees, cancellation, your ${MEMBERSHIP_TERMS.changeOfMindDays}-day right of withdrawal, refunds and Dutch law.`,
    },
    args,
  );

export default function TermsPage() {
  return <TermsAndConditions />;
}
