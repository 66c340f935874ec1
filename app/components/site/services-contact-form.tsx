import type { SubmissionResult } from "@conform-to/react";
import { useLocation } from "react-router";
import { FIELD_LIMITS, servicesContactSchema } from "~/features/messages/schemas";
import { cn } from "~/lib/class-names";
import { FormField } from "./form-field";
import { PublicForm } from "./public-form";

/** Where the form sits on a page; the form returns there after a submission. */
export const SERVICES_CONTACT_ANCHOR = "services-contact";

/**
 * The contact form of the services page, self-contained: it posts to `/services/contact`, which
 * stores the message, queues the e-mails and comes back to this page with a toast.
 */
export function ServicesContactForm({
  lastResult,
  className,
}: {
  lastResult?: SubmissionResult<string[]>;
  className?: string;
}) {
  const { pathname } = useLocation();
  return (
    <section
      id={SERVICES_CONTACT_ANCHOR}
      aria-labelledby={`${SERVICES_CONTACT_ANCHOR}-heading`}
      className={cn("mx-auto w-full max-w-2xl scroll-mt-24 rounded-xl border bg-card p-6 shadow-sm sm:p-8", className)}
    >
      <h2 id={`${SERVICES_CONTACT_ANCHOR}-heading`} className="text-2xl font-bold tracking-tight">
        Questions about our services?
      </h2>
      <p className="mt-2 text-muted-foreground">Send us a message and our team will get back to you soon.</p>
      <PublicForm
        schema={servicesContactSchema}
        action="/services/contact"
        submitLabel="Submit"
        lastResult={lastResult}
        className="mt-6"
      >
        {(fields) => (
          <>
            <input type="hidden" name="redirectTo" value={pathname} />
            <FormField
              field={fields.fullName}
              label="Full name"
              maxLength={FIELD_LIMITS.fullName}
              autoComplete="name"
            />
            <FormField
              field={fields.email}
              label="Email"
              type="email"
              maxLength={FIELD_LIMITS.email}
              autoComplete="email"
            />
            <FormField field={fields.message} label="Message" multiline maxLength={FIELD_LIMITS.message} />
          </>
        )}
      </PublicForm>
    </section>
  );
}
