import type { Route } from "./+types/admin";
import { PageHeading } from "~/components/site/page-heading";
import { pageMeta } from "~/features/seo/page-meta";

export const handle = { lang: "fr" };

export const meta: Route.MetaFunction = () => [
  ...pageMeta({ title: "Tableau de bord" }),
  { name: "robots", content: "noindex" },
];

export default function AdminPage() {
  return <PageHeading title="Tableau de bord administrateur" lead="Clients, commandes et état du système." />;
}
