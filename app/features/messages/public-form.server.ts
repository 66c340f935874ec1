import type { z } from "zod";
import { nudgeOutbox } from "~/platform/mail/outbox-worker.server";
import { logger } from "~/logger.server";
import { handleFormAction } from "~/lib/form-action.server";
import type { Toast } from "~/lib/toast";
import { redirectWithToast } from "~/lib/toast.server";
import { isHoneypotFilled } from "./honeypot";

export const SEND_FAILED = "Sorry, we could not send this right now. Please try again in a moment.";

interface PublicFormOptions<Schema extends z.ZodObject> {
  request: Request;
  /** Names the form in logs. */
  form: string;
  schema: Schema;
  /** Stores the submission (and queues its mail) in one transaction. */
  save(value: z.output<Schema>, request: Request): Promise<unknown>;
  /** Where to go afterwards, read from the submitted form when it depends on it. */
  redirectTo(formData: FormData): string;
  success: Toast;
}

/**
 * The server half of a PublicForm (handleFormAction, on the public forms' rate limit): a filled
 * honeypot is answered like a success and dropped; a saved submission nudges the outbox and sends
 * the visitor on with the success toast.
 */
export function handlePublicForm<Schema extends z.ZodObject>({
  request,
  form,
  schema,
  save,
  redirectTo,
  success,
}: PublicFormOptions<Schema>) {
  return handleFormAction({
    request,
    form,
    schema,
    rateLimit: "publicForms",
    drop(formData) {
      if (!isHoneypotFilled(formData)) return undefined;
      logger.info({ form }, "form submission dropped: honeypot filled");
      return redirectWithToast(redirectTo(formData), success);
    },
    save: (value) => save(value, request),
    failure: { log: "form submission could not be saved", formError: SEND_FAILED },
    answer(_saved, { formData }) {
      nudgeOutbox();
      return redirectWithToast(redirectTo(formData), success);
    },
  });
}
