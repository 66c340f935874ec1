import type { Route } from "./+types/unsubscribe";
import { PageHeading } from "~/components/site/page-heading";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Unsubscribe" });

export default function UnsubscribePage() {
  return <PageHeading title="Unsubscribe" lead="Stop your membership e-mails or end your subscription." />;
}
