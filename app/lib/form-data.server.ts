import { data } from "react-router";

export const UNSUPPORTED_FORM_ENCODING =
  "This form could not be read: send it from the page, as application/x-www-form-urlencoded or multipart/form-data.";
export const MALFORMED_FORM =
  "This form could not be read: its data is malformed. Please reload the page and try again.";

export const CONTROL_CHARACTER_REFUSED =
  "This form contains an invisible control character (such as NUL) that we cannot store. Please retype what you entered and send it again.";
export const CONTROL_CHARACTER_REFUSED_FR =
  "Ce formulaire contient un caractère de contrôle invisible (comme NUL) que nous ne pouvons pas enregistrer. Veuillez retaper votre saisie et l'envoyer de nouveau.";

const FORM_ENCODINGS = ["application/x-www-form-urlencoded", "multipart/form-data"];

/** C0 controls but tab, line feed and carriage return (which a text area sends); PostgreSQL refuses NUL in text. */
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;

/**
 * The submitted form of an action. A body a browser's form would never send (another content type,
 * a broken multipart or percent-encoding) is refused with a 4xx the visitor can read, not a 500.
 */
export async function readFormData(request: Request): Promise<FormData> {
  const contentType = request.headers.get("Content-Type")?.toLowerCase() ?? "";
  if (!FORM_ENCODINGS.some((encoding) => contentType.startsWith(encoding))) {
    await drain(request);
    throw data(UNSUPPORTED_FORM_ENCODING, { status: 415 });
  }
  let formData: FormData;
  try {
    formData = await request.formData();
  } catch {
    throw data(MALFORMED_FORM, { status: 400 });
  }
  // Refused before any form reads it, so that every form, sign-up included, answers alike whether or
  // not the address is known, and nothing is stored.
  for (const [name, value] of formData) {
    if (CONTROL_CHARACTER.test(name) || (typeof value === "string" && CONTROL_CHARACTER.test(value))) {
      const french = /^\/(auth|admin)(\/|$)/.test(new URL(request.url).pathname);
      throw data(french ? CONTROL_CHARACTER_REFUSED_FR : CONTROL_CHARACTER_REFUSED, { status: 400 });
    }
  }
  return formData;
}

/** Reads the body to its end without keeping it: answering before the client has sent it all resets the connection. */
async function drain(request: Request) {
  if (!request.body) return;
  for await (const _chunk of request.body);
}
