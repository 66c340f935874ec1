import { z } from "~/lib/zod";

/** Longest accepted value of each field; the inputs cap typing at the same lengths. */
export const FIELD_LIMITS = {
  firstName: 100,
  lastName: 100,
  fullName: 100,
  email: 255,
  phone: 20,
  message: 1000,
} as const;

const INVALID_EMAIL = "Invalid email address";

/** Trimmed text that must not be empty; a missing field gets the same message as an empty one. */
export function requiredText(required: string, max: number, tooLong: string) {
  return z.string({ error: required }).overwrite(withNewlines).trim().min(1, required).max(max, tooLong);
}

/**
 * A form posted by the browser sends each line break of a textarea as CR LF: kept as the LF that was
 * typed, so the text reads and counts (against its limit, as the textarea's maxlength does) the same.
 */
function withNewlines(text: string) {
  return text.replace(/\r\n?/g, "\n");
}

export const emailAddress = z
  .string({ error: INVALID_EMAIL })
  .trim()
  .pipe(z.email(INVALID_EMAIL).max(FIELD_LIMITS.email, `Email must be at most ${FIELD_LIMITS.email} characters`));

const message = requiredText(
  "Message is required",
  FIELD_LIMITS.message,
  `Message must be at most ${FIELD_LIMITS.message} characters`,
);

/** The /contact form: every field required and trimmed, each with its own message. */
export const contactSchema = z.object({
  firstName: requiredText(
    "First name is required",
    FIELD_LIMITS.firstName,
    `First name must be at most ${FIELD_LIMITS.firstName} characters`,
  ),
  lastName: requiredText(
    "Last name is required",
    FIELD_LIMITS.lastName,
    `Last name must be at most ${FIELD_LIMITS.lastName} characters`,
  ),
  email: emailAddress,
  phone: requiredText(
    "Phone number is required",
    FIELD_LIMITS.phone,
    `Phone number must be at most ${FIELD_LIMITS.phone} characters`,
  ),
  message,
});

/** The contact form on /services: full name, email and message, all required. */
export const servicesContactSchema = z.object({
  fullName: requiredText(
    "Full name is required",
    FIELD_LIMITS.fullName,
    `Full name must be at most ${FIELD_LIMITS.fullName} characters`,
  ),
  email: emailAddress,
  message,
});

/** The /unsubscribe form: one e-mail address. */
export const unsubscribeSchema = z.object({ email: emailAddress });
