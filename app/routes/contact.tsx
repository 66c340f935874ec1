import type { Route } from "./+types/contact";
import { PageHeading } from "~/components/site/page-heading";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Contact Us" });

export default function ContactPage() {
  return <PageHeading title="CONTACT US" lead="Our team is here 7 days a week, 9 AM to 8 PM." />;
}
