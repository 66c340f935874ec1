import type { Route } from "./+types/fast-track";
import { useCurrency } from "~/components/site/currency-menu";
import { PageHeading } from "~/components/site/page-heading";
import { formatPrice } from "~/features/currency/currency";
import { pageMeta } from "~/features/seo/page-meta";
import { siteConfig } from "../../site.config";

export const meta: Route.MetaFunction = () => pageMeta({ title: "Airport Fast Track" });

export default function FastTrackPage() {
  const currency = useCurrency();
  return (
    <PageHeading
      title={`Fast Track - from ${formatPrice(siteConfig.fastTrack.fromPrice, currency.code)}`}
      lead="Less queuing at airports, faster boarding to gate"
    />
  );
}
