import type { Route } from "./+types/config-generator";
import { PageHeading } from "~/components/site/page-heading";
import { requireAdmin } from "~/features/auth/guards.server";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Site Configuration Generator" });

/** An internal tool: admins only. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return null;
}

export default function ConfigGeneratorPage() {
  return <PageHeading title="Site Configuration Generator" lead="Rebrand the whole site with AI-rephrased wording." />;
}
