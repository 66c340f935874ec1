import { ExternalLink, MessageCircle } from "lucide-react";
import { Link } from "react-router";
import type { DocumentHandle } from "~/root";
import type { Route } from "./+types/contact";
import { ContactForm } from "~/features/messages/ui/contact-form";
import { ACCOUNT_PATH, memberAreaUrl } from "~/components/layout/nav-links";
import { SectionCard } from "~/components/layout/section-card";
import { PageHeading } from "~/components/layout/page-heading";
import { SupportContactLinks } from "~/features/support/ui/support-contacts";
import { database } from "~/db/client.server";
import { MESSAGE_SENT, saveContactMessage } from "~/features/messages/contact.server";
import { handlePublicForm } from "~/features/messages/public-form.server";
import { contactSchema } from "~/features/messages/schemas";
import { SUPPORT_HOURS } from "~/features/support/support-hours";
import { pageMeta } from "~/platform/seo/page-meta";
import { siteConfig } from "../../site.config";
import { passRetryAfter } from "~/lib/retry-after";

export const headers = passRetryAfter;

export const handle = { hydrate: false } satisfies DocumentHandle;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(
    {
      title: "Contact Us",
      description: `Call, e-mail or write to ${siteConfig.company.name} customer service, ${SUPPORT_HOURS}.`,
    },
    args,
  );

export function action({ request }: Route.ActionArgs) {
  return handlePublicForm({
    request,
    form: "contact",
    schema: contactSchema,
    save: ({ firstName, lastName, email, phone, message }) =>
      saveContactMessage(database().db, { source: "contact", name: `${firstName} ${lastName}`, email, phone, message }),
    redirectTo: () => "/contact",
    success: { type: "success", title: MESSAGE_SENT },
  });
}

export default function ContactPage({ actionData }: Route.ComponentProps) {
  return (
    <>
      <PageHeading title="CONTACT US" lead="Questions about your membership or a booking? We are happy to help." />
      <div className="mx-auto grid max-w-6xl gap-6 px-4 pb-16 sm:px-6 lg:grid-cols-5">
        <SectionCard
          large
          title="Option 1: Call or e-mail us"
          subtitle={`Our customer service team is available ${SUPPORT_HOURS}.`}
          className="lg:col-span-2 lg:self-start"
          contentClassName="space-y-6"
        >
          <SupportContactLinks />
          <p className="flex items-start gap-3 text-muted-foreground">
            <MessageCircle className="mt-0.5 size-5 shrink-0 text-foreground" aria-hidden="true" />
            {siteConfig.domains.memberArea ? (
              <span>
                Prefer to chat? Use the chat in the{" "}
                <a
                  href={memberAreaUrl(siteConfig.domains.memberArea)}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="inline-flex items-center gap-1 font-medium text-link underline underline-offset-4"
                >
                  member area
                  <ExternalLink className="size-3.5" aria-hidden="true" />
                  <span className="sr-only">(opens in a new tab)</span>
                </a>{" "}
                to talk to us during the same hours.
              </span>
            ) : (
              // This site's own member area has no chat (yet): it must not promise one.
              <span>
                Your bookings, vouchers and membership are in{" "}
                <Link to={ACCOUNT_PATH} className="font-medium text-link underline underline-offset-4">
                  your account
                </Link>
                , at any hour: sign in with a code we e-mail you.
              </span>
            )}
          </p>
        </SectionCard>
        <SectionCard
          large
          title="Option 2: Send us a message"
          subtitle="Fill in the form and we will get back to you by e-mail."
          className="lg:col-span-3"
        >
          <ContactForm lastResult={actionData?.result} />
        </SectionCard>
      </div>
    </>
  );
}
