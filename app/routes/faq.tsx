import type { Route } from "./+types/faq";
import type { DocumentHandle } from "~/root";
import { FaqList, StillHaveQuestions } from "~/features/faq/ui/faq-list";
import { PageHeading } from "~/components/layout/page-heading";
import { FAQ_ITEMS } from "~/features/faq/ui/questions";
import { pageMeta } from "~/platform/seo/page-meta";
import { siteConfig } from "../../site.config";

/** Links, native disclosures and forms that post: nothing here needs React in the browser. */
export const handle = { hydrate: false } satisfies DocumentHandle;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(
    {
      title: "Frequently Asked Questions",
      description: `Answers about the ${siteConfig.company.name} membership: how it works, when it starts, automatic renewal, cancelling and usage limits.`,
    },
    args,
  );

export default function FaqPage() {
  return (
    <>
      <PageHeading title="Frequently Asked Questions" lead="Everything about how the membership works." />
      <div className="mx-auto max-w-3xl px-4 pb-16 sm:px-6">
        <FaqList items={FAQ_ITEMS} />
        <StillHaveQuestions />
      </div>
    </>
  );
}
