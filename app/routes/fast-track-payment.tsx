import type { Route } from "./+types/fast-track-payment";
import { PageHeading } from "~/components/site/page-heading";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = () => [
  ...pageMeta({ title: "Checkout" }),
  { name: "robots", content: "noindex" },
];

export default function FastTrackPaymentPage() {
  return <PageHeading title="Checkout" lead="Loading order details..." />;
}
