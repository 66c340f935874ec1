import type { Route } from "./+types/faq";
import { PageHeading } from "~/components/site/page-heading";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = () => pageMeta({ title: "FAQ" });

export default function FaqPage() {
  return <PageHeading title="Frequently Asked Questions" lead="Everything about how the membership works." />;
}
