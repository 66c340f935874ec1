import type { Route } from "./+types/terms";
import { PageHeading } from "~/components/site/page-heading";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Terms and Conditions" });

export default function TermsPage() {
  return <PageHeading title="Terms and Conditions" lead="Last updated 21 March 2025" />;
}
