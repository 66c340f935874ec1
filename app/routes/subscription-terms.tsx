import type { Route } from "./+types/subscription-terms";
import { PageHeading } from "~/components/site/page-heading";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Subscription Terms" });

export default function SubscriptionTermsPage() {
  return <PageHeading title="Subscription Terms" lead="How the free trial, the quarterly fee and cancellation work." />;
}
