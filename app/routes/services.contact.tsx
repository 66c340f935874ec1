import type { DocumentHandle } from "~/root";
import type { Route } from "./+types/services.contact";
import { PageHeading } from "~/components/layout/page-heading";
import { SERVICES_CONTACT_ANCHOR, ServicesContactForm } from "~/features/messages/ui/services-contact-form";
import { database } from "~/db/client.server";
import { MESSAGE_SENT, saveContactMessage } from "~/features/messages/contact.server";
import { handlePublicForm } from "~/features/messages/public-form.server";
import { servicesContactSchema } from "~/features/messages/schemas";
import { pageMeta } from "~/platform/seo/page-meta";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { passRetryAfter } from "~/lib/retry-after";

// The services page's contact form posts here. With JavaScript on it answers the form's fetcher; without
// it, a refused submission renders this page with the errors and what was typed.

export const headers = passRetryAfter;

export const handle = { hydrate: false } satisfies DocumentHandle;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(
    { title: "Ask About Our Services", description: "Send our team a question about our travel services." },
    args,
  );

export function action({ request }: Route.ActionArgs) {
  return handlePublicForm({
    request,
    form: "services-contact",
    schema: servicesContactSchema,
    save: ({ fullName, email, message }) =>
      saveContactMessage(database().db, { source: "services", name: fullName, email, message }),
    redirectTo: (formData) => `${safeRedirectPath(formData.get("redirectTo"), "/services")}#${SERVICES_CONTACT_ANCHOR}`,
    success: { type: "success", title: MESSAGE_SENT },
  });
}

export default function ServicesContactPage({ actionData }: Route.ComponentProps) {
  return (
    <section id={SERVICES_CONTACT_ANCHOR} className="px-4 pb-16 sm:px-6">
      <PageHeading
        title="Ask About Our Services"
        lead="A question about a service or your membership? Send us a message and we will answer by e-mail."
      />
      <ServicesContactForm lastResult={actionData?.result} className="mx-auto max-w-2xl" />
    </section>
  );
}
