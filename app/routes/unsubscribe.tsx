import type { DocumentHandle } from "~/root";
import type { Route } from "./+types/unsubscribe";
import { SectionCard } from "~/components/layout/section-card";
import { PageHeading } from "~/components/layout/page-heading";
import { SupportContactLinks, SupportHoursBox } from "~/features/support/ui/support-contacts";
import { UnsubscribeForm } from "~/features/memberships/ui/unsubscribe-form";
import { database } from "~/db/client.server";
import { handlePublicForm } from "~/features/messages/public-form.server";
import { unsubscribeSchema } from "~/features/messages/schemas";
import { requestCancellation, UNSUBSCRIBE_LINK_SENT } from "~/features/memberships/cancellation-request.server";
import { CANCELLATION_LINK_HOURS } from "~/features/memberships/cancellation-link";
import { pageMeta } from "~/platform/seo/page-meta";
import { siteOrigin } from "~/lib/site-origin.server";
import { passRetryAfter } from "~/lib/retry-after";

export const headers = passRetryAfter;

export const handle = { hydrate: false } satisfies DocumentHandle;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(
    {
      title: "Unsubscribe",
      description: "Unsubscribe online with a confirmation link sent to your e-mail, or ask our customer service.",
    },
    args,
  );

export function action({ request }: Route.ActionArgs) {
  return handlePublicForm({
    request,
    form: "unsubscribe",
    schema: unsubscribeSchema,
    save: ({ email }) => requestCancellation(database().db, { email, origin: siteOrigin() }),
    redirectTo: () => "/unsubscribe",
    success: { type: "success", title: UNSUBSCRIBE_LINK_SENT },
  });
}

export default function UnsubscribePage({ actionData }: Route.ComponentProps) {
  return (
    <>
      <PageHeading title="Unsubscribe" lead="Choose the way that suits you best." />
      <div className="mx-auto max-w-5xl space-y-6 px-4 pb-16 sm:px-6">
        <div className="grid gap-6 md:grid-cols-2">
          <SectionCard
            large
            title="Option 1: Unsubscribe online"
            subtitle={`Enter the e-mail address of your membership. We will send you a link to confirm; it works once and expires after ${CANCELLATION_LINK_HOURS} hours.`}
          >
            <UnsubscribeForm lastResult={actionData?.result} />
          </SectionCard>
          <SectionCard
            large
            title="Option 2: Contact customer service"
            subtitle="Call or e-mail us and our team will take care of it for you."
          >
            <SupportContactLinks />
          </SectionCard>
        </div>
        <SupportHoursBox />
      </div>
    </>
  );
}
