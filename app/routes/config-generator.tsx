import type { Route } from "./+types/config-generator";
import { PageHeading } from "~/components/site/page-heading";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Site Configuration Generator" });

export default function ConfigGeneratorPage() {
  return <PageHeading title="Site Configuration Generator" lead="Rebrand the whole site with AI-rephrased wording." />;
}
