import { data } from "react-router";

export const UNSUPPORTED_FORM_ENCODING =
  "This form could not be read: send it from the page, as application/x-www-form-urlencoded or multipart/form-data.";
export const MALFORMED_FORM =
  "This form could not be read: its data is malformed. Please reload the page and try again.";

const FORM_ENCODINGS = ["application/x-www-form-urlencoded", "multipart/form-data"];

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
  try {
    return await request.formData();
  } catch {
    throw data(MALFORMED_FORM, { status: 400 });
  }
}

/** Reads the body to its end without keeping it: answering before the client has sent it all resets the connection. */
async function drain(request: Request) {
  if (!request.body) return;
  for await (const _chunk of request.body);
}
