import type { Route } from "./+types/privacy";
import { PageHeading } from "~/components/site/page-heading";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Privacy Policy" });

export default function PrivacyPage() {
  return <PageHeading title="Privacy Policy" lead="Last updated 21 March 2025" />;
}
