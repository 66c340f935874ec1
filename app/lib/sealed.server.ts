import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { deriveKey } from "./secrets.server";

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Text only this site can read back, for links that must carry personal data (an e-mail address,
 * a sign-in code) without putting it in clear in access logs and browser histories: AES-256-GCM
 * under a key of its own for each purpose, base64url.
 */
export function seal(purpose: string, text: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", deriveKey(`sealed:${purpose}`), iv);
  const sealed = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64url");
}

/** The text sealed for this purpose, or null for anything else (changed, truncated, another purpose's). */
export function unseal(purpose: string, token: string): string | null {
  const bytes = Buffer.from(token, "base64url");
  if (bytes.length < IV_BYTES + TAG_BYTES || bytes.toString("base64url") !== token) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", deriveKey(`sealed:${purpose}`), bytes.subarray(0, IV_BYTES));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
