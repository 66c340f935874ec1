/**
 * A field people never see or fill in, on every public form. Bots that fill every input fill it too;
 * such a submission is answered like a success and dropped.
 */
export const HONEYPOT_FIELD = "website";

export function isHoneypotFilled(formData: FormData): boolean {
  const value = formData.get(HONEYPOT_FIELD);
  return typeof value === "string" && value !== "";
}
