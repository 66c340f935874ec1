import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { customers } from "~/db/schema";
import { countRequest } from "~/lib/rate-limit.server";
import { logger } from "~/logger.server";
import { callAuthEndpoint } from "./auth.server";
import { outcomeOf, type AuthOutcome } from "./credentials.server";

export type CodeRequestOutcome = { ok: true } | { ok: false; reason: "rate-limited" | "failed" };

/** The key an address's count is kept under: its hash, so that the counters name no one. */
const addressKey = (email: string) => createHash("sha256").update(email).digest("base64url");

/**
 * Mails a sign-in code to the address, whether or not anyone with it ever booked: the answer, and
 * the work behind it, are the same for every address, so that the form tells no one who is a member.
 */
export async function sendSignInCode(request: Request, db: Database, email: string): Promise<CodeRequestOutcome> {
  const perAddress = await countRequest(db, "signInCodesPerAddress", addressKey(email));
  if (perAddress.limited) return { ok: false, reason: "rate-limited" };
  const response = await callAuthEndpoint(request, "/email-otp/send-verification-otp", { email, type: "sign-in" });
  if (response.ok) return { ok: true };
  if (response.status === 429) return { ok: false, reason: "rate-limited" };
  logger.warn({ status: response.status }, "auth: a sign-in code could not be sent");
  return { ok: false, reason: "failed" };
}

/**
 * Signs in with a mailed code; the first sign-in of an address creates its account, named as the
 * address's bookings name their customer. A wrong or expired code answers "invalid-credentials",
 * the last allowed try too: the person asks for a new code either way.
 */
export async function signInWithCode(
  request: Request,
  db: Database,
  { email, code }: { email: string; code: string },
): Promise<AuthOutcome> {
  const [customer] = await db
    .select({ fullName: customers.fullName })
    .from(customers)
    .where(eq(customers.email, email.toLowerCase()));
  const name = customer?.fullName ?? "";
  const response = await callAuthEndpoint(request, "/sign-in/email-otp", { email, otp: code, name, fullName: name });
  if (response.status === 400 || response.status === 403) return { ok: false, reason: "invalid-credentials" };
  return outcomeOf(response, "sign-in with a code");
}
