import { useFormAction, useNavigation } from "react-router";

/**
 * Whether a form of this page is being posted: from the submission until the page that answers it has
 * loaded, or with `state: "submitting"` only until the action has answered. (epic-stack's useIsPending.)
 */
export function useIsPending({
  formAction,
  state = "non-idle",
  fields,
}: {
  /** Where the form posts, when not to this route's own action (a `<Form>` without `action`). */
  formAction?: string;
  state?: "submitting" | "non-idle";
  /** For one of several forms posting to the same action: values its submission carries. */
  fields?: Record<string, string>;
} = {}): boolean {
  const action = useFormAction(formAction);
  const navigation = useNavigation();
  if (navigation.formMethod !== "POST" || navigation.formAction !== action) return false;
  if (state === "submitting" && navigation.state !== "submitting") return false;
  return Object.entries(fields ?? {}).every(([name, value]) => navigation.formData?.get(name) === value);
}
