import type { Route } from "./+types/services";
import { PageHeading } from "~/components/site/page-heading";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Our Services" });

export default function ServicesPage() {
  return (
    <PageHeading
      title="Our Services"
      lead="Fast track, automated check-in, attractions, e-books and concierge help in one membership."
    />
  );
}
