import type { Route } from "./+types/home";
import { PageHeading } from "~/components/site/page-heading";
import { pageMeta } from "~/features/seo/page-meta";
import { siteConfig } from "../../site.config";

export const meta: Route.MetaFunction = () => pageMeta();

export default function HomePage() {
  const { hero } = siteConfig.content;
  return <PageHeading title={hero.title} lead={hero.subtitle} />;
}
