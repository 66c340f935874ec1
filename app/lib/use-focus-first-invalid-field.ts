import type { SubmissionResult } from "@conform-to/react";
import { useEffect } from "react";

/**
 * When the server refuses a submission, puts the cursor in the first field it marked invalid, as the
 * browser-side validation does: a page sent without React's scripts validates on the server only.
 */
export function useFocusFirstInvalidField(formId: string, result: SubmissionResult<string[]> | undefined) {
  useEffect(() => {
    if (!result?.error) return;
    document.getElementById(formId)?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [formId, result]);
}
