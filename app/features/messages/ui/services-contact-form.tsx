import type { SubmissionResult } from "@conform-to/react";
import { useLocation } from "react-router";
import { InputField } from "~/components/ui/input-field";
import { FIELD_LIMITS, servicesContactSchema } from "~/features/messages/schemas";
import { cn } from "~/lib/class-names";
import { EmailField, MessageField } from "./message-fields";
import { PublicForm } from "./public-form";

/** The id of the section a page puts this form in; a submission comes back to it. */
export const SERVICES_CONTACT_ANCHOR = "contact";

/**
 * The contact form of the services page (full name, email, message), self-contained: it posts to
 * `/services/contact`, which stores the message, queues the e-mails and comes back to this page's
 * `#contact` section with a toast.
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
    <PublicForm
      schema={servicesContactSchema}
      action="/services/contact"
      submitLabel="Submit"
      lastResult={lastResult}
      className={cn("rounded-xl border bg-card p-6 shadow-sm sm:p-8", className)}
    >
      {(fields) => (
        <>
          <input type="hidden" name="redirectTo" value={pathname} />
          <InputField field={fields.fullName} label="Full name" maxLength={FIELD_LIMITS.fullName} autoComplete="name" />
          <EmailField field={fields.email} />
          <MessageField field={fields.message} />
        </>
      )}
    </PublicForm>
  );
}
