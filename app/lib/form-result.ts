import type { SubmissionResult } from "@conform-to/react";

/** What a form's action answers when it does not redirect: Conform's result (errors, what was typed). */
export interface FormActionData {
  result: SubmissionResult<string[]>;
}

/**
 * The first message of a form's errors, as Conform reports them (field name to messages, in the
 * order the schema checks the fields; "" holds errors about the whole form).
 */
export function firstErrorMessage(errors: Record<string, string[] | null | undefined> | null | undefined) {
  if (!errors) return undefined;
  for (const messages of Object.values(errors)) {
    if (messages?.[0]) return messages[0];
  }
  return undefined;
}
