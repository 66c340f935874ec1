import type { Route } from "./+types/pre-checkout";
import { PageHeading } from "~/components/site/page-heading";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Choose Your Plan" });

export default function PreCheckoutPage() {
  return (
    <PageHeading
      title="Choose Your Plan"
      lead="Start with a 3-day free trial, then one quarterly fee. Cancel anytime."
    />
  );
}
