import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { z } from "zod";
import { database } from "~/db/client.server";
import { isDatabaseUnavailable } from "~/db/connection-errors";
import { logger } from "~/logger.server";
import type { FormActionData } from "./form-result";
import { readFormData } from "./form-data.server";
import { countClientRequest, TOO_MANY_REQUESTS, tooManyRequests, type RateLimitTier } from "./rate-limit.server";
import { unexpectedFields } from "./unexpected-fields";

/** Answers a submission with its errors and what was typed, plus `formErrors` about the whole form. */
type Refuse<Extra> = (
  init: number | ResponseInit,
  formErrors?: string[],
) => ReturnType<typeof data<FormActionData & Extra>>;

interface FormActionOptions<Schema extends z.ZodObject, Saved, Extra, Answer> {
  request: Request;
  /** Names the form in logs. */
  form: string;
  /** What else the logs say about this submission (the order being paid). */
  logContext?: Record<string, unknown>;
  schema: Schema;
  /**
   * The rate-limit tier a valid submission counts against; null for the second step of an attempt
   * whose first step was counted (a Stripe payment: opened, then settled).
   */
  rateLimit: RateLimitTier | null;
  /** Answers a submission to drop unread (a bot's), before anything is checked. */
  drop?: (formData: FormData) => Response | undefined;
  /**
   * Refuses a submission carrying fields the schema does not declare, saying why they are not
   * accepted ("prices and currency are set by us"). Without it, such fields are ignored.
   */
  refuseUnexpectedFields?: string;
  /** Fields never sent back, not even to refill the form after a refusal (card number, CVV). */
  hideFields?: string[];
  /** What a refusal's action data carries beside `result`. */
  refusalData?: () => Extra;
  /** Stores the submission, or does what it asks. */
  save(value: z.output<Schema>): Promise<Saved>;
  /**
   * When `save` throws: the message logged with the error, and the refusal (500) with the form's
   * error and, when given, its own action data.
   */
  failure: { log: string; formError: string; data?: Extra };
  /** The answer to a saved submission: a redirect with a toast, a refusal, or a page's next step (`Answer`). */
  answer(
    saved: Saved,
    submitted: { refuse: Refuse<Extra>; formData: FormData },
  ): Response | ReturnType<Refuse<Extra>> | ReturnType<typeof data<Answer>>;
}

/**
 * The server half of a form: it reads the submission (and drops it if `drop` answers); refuses
 * fields the form does not have, then invalid input, with its errors and what was typed (400);
 * refuses a valid submission over the rate limit the same way (429), so nothing is stored in either
 * case; then saves it and answers. A save that throws is logged and refused with the form's error (500).
 */
export async function handleFormAction<Schema extends z.ZodObject, Saved, Extra = object, Answer = never>({
  request,
  form,
  logContext,
  schema,
  rateLimit,
  drop,
  refuseUnexpectedFields,
  hideFields,
  refusalData,
  save,
  failure,
  answer,
}: FormActionOptions<Schema, Saved, Extra, Answer>) {
  const formData = await readFormData(request);
  const dropped = drop?.(formData);
  if (dropped) return dropped;
  const submission = parseWithZod(formData, { schema });
  const refuse = (init: number | ResponseInit, formErrors?: string[], extra = refusalData?.()) =>
    data<FormActionData & Extra>(
      {
        result: submission.reply({ ...(hideFields && { hideFields }), ...(formErrors && { formErrors }) }),
        ...(extra as Extra),
      },
      init,
    );

  const unexpected = refuseUnexpectedFields ? unexpectedFields(formData, Object.keys(schema.shape)) : [];
  if (unexpected.length > 0) {
    return refuse(400, [
      `This form carried fields we do not accept (${unexpected.join(", ")}): ${refuseUnexpectedFields}. Please reload the page and try again.`,
    ]);
  }
  if (submission.status !== "success") return refuse(400);
  if (rateLimit) {
    const limit = await countClientRequest(database().db, rateLimit, request);
    if (limit.limited) return refuse(tooManyRequests(limit), [TOO_MANY_REQUESTS]);
  }

  let saved: Saved;
  try {
    saved = await save(submission.value);
  } catch (error) {
    if (isDatabaseUnavailable(error)) {
      logger.warn({ err: error, form, ...logContext }, `${failure.log}: the database was unavailable`);
      return refuse({ status: 503, headers: { "Retry-After": "5" } }, [failure.formError], failure.data);
    }
    logger.error({ err: error, form, ...logContext }, failure.log);
    return refuse(500, [failure.formError], failure.data);
  }
  return answer(saved, { refuse, formData });
}
