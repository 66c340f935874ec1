import type { Route } from "./+types/fast-track-form";
import { PageHeading } from "~/components/site/page-heading";
import { pageMeta } from "~/features/seo/page-meta";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Book Your Fast Track" });

export default function FastTrackFormPage() {
  return (
    <PageHeading title="Book Your Fast Track" lead="Tell us who is travelling and when; you pay on the next step." />
  );
}
