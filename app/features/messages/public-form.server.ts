import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { z } from "zod";
import { database } from "~/db/client.server";
import { nudgeOutbox } from "~/features/mail/outbox-worker.server";
import { logger } from "~/logger.server";
import type { FormActionData } from "~/lib/form-result";
import { countClientRequest, TOO_MANY_REQUESTS, tooManyRequests } from "~/lib/rate-limit.server";
import type { Toast } from "~/lib/toast";
import { redirectWithToast } from "~/lib/toast.server";
import { isHoneypotFilled } from "./honeypot";
import { readFormData } from "~/lib/form-data.server";

export const SEND_FAILED = "Sorry, we could not send this right now. Please try again in a moment.";

interface PublicFormOptions<Schema extends z.ZodType> {
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
 * The server half of every public form: a filled honeypot is answered like a success and dropped;
 * invalid input comes back with its errors and what was typed (400) and stores nothing; a valid
 * submission over the public forms' rate limit comes back the same way (429); otherwise it is
 * saved, the outbox is nudged, and the visitor is redirected with the success toast.
 */
export async function handlePublicForm<Schema extends z.ZodType>({
  request,
  form,
  schema,
  save,
  redirectTo,
  success,
}: PublicFormOptions<Schema>) {
  const formData = await readFormData(request);
  if (isHoneypotFilled(formData)) {
    logger.info({ form }, "form submission dropped: honeypot filled");
    return redirectWithToast(redirectTo(formData), success);
  }
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") {
    return data<FormActionData>({ result: submission.reply() }, { status: 400 });
  }
  const limit = await countClientRequest(database().db, "publicForms", request);
  if (limit.limited) {
    const result = submission.reply({ formErrors: [TOO_MANY_REQUESTS] });
    return data<FormActionData>({ result }, tooManyRequests(limit));
  }
  try {
    await save(submission.value, request);
  } catch (error) {
    logger.error({ err: error, form }, "form submission could not be saved");
    return data<FormActionData>({ result: submission.reply({ formErrors: [SEND_FAILED] }) }, { status: 500 });
  }
  nudgeOutbox();
  return redirectWithToast(redirectTo(formData), success);
}
