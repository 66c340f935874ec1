import type { Route } from "./+types/auth";
import { PageHeading } from "~/components/site/page-heading";
import { pageMeta } from "~/features/seo/page-meta";

export const handle = { lang: "fr" };

export const meta: Route.MetaFunction = () => [
  ...pageMeta({ title: "Connexion" }),
  { name: "robots", content: "noindex" },
];

export default function AuthPage() {
  return <PageHeading title="Connexion" lead="Connectez-vous ou créez un compte." />;
}
