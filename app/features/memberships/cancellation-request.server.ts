import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { unsubscribeRequests } from "~/db/schema";
import { enqueueMail } from "~/platform/mail/outbox.server";
import { cancelMembershipOfAddress, type AddressCancellation } from "./cancellation.server";
import { confirmCancellationMail, cancellationConfirmedNoticeMail } from "./cancellation-request-mail";
import { siteConfig } from "../../../site.config";
import { CANCELLATION_LINK_HOURS } from "./cancellation-link";

export const UNSUBSCRIBE_LINK_SENT = "Unsubscribe link sent to your email";

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function hashToken(token: string) {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * Records a request and queues the e-mail with its single-use confirmation link. It does the same
 * for every address, member or not, so the answer never tells anyone whether an address is a member.
 * Only the token's hash is stored: the link itself exists only in the recipient's inbox.
 */
export async function requestCancellation(db: Database, { email, origin }: { email: string; origin: string }) {
  const token = randomBytes(32).toString("base64url");
  const confirmUrl = new URL("/unsubscribe/confirm", origin);
  confirmUrl.searchParams.set("token", token);
  await db.transaction(async (tx) => {
    await tx.insert(unsubscribeRequests).values({
      email,
      tokenHash: hashToken(token),
      expiresAt: sql`now() + make_interval(hours => ${CANCELLATION_LINK_HOURS})`,
    });
    await enqueueMail(tx, {
      to: email,
      ...(await confirmCancellationMail({
        confirmUrl: confirmUrl.toString(),
        validForHours: CANCELLATION_LINK_HOURS,
      })),
    });
  });
}

export type CancellationLink =
  /** The link works: it may be confirmed. */
  | { state: "ready"; email: string }
  /**
   * Just confirmed by this request, by the holder of the link the address was sent: the address's
   * membership, if it had one, and until when it runs.
   */
  | { state: "confirmed"; email: string; membership: AddressCancellation | null }
  | { state: "used"; email: string; confirmedAt: Date }
  | { state: "expired" }
  | { state: "unknown" };

/** What a link's token stands for. Reads only: opening the link changes nothing. */
export async function inspectCancellationLink(db: Database, token: string | null): Promise<CancellationLink> {
  if (!token || !TOKEN_PATTERN.test(token)) return { state: "unknown" };
  const [request] = await db
    .select({
      email: unsubscribeRequests.email,
      confirmedAt: unsubscribeRequests.confirmedAt,
      expired: sql<boolean>`${unsubscribeRequests.expiresAt} <= now()`,
    })
    .from(unsubscribeRequests)
    .where(eq(unsubscribeRequests.tokenHash, hashToken(token)));
  if (!request) return { state: "unknown" };
  if (request.confirmedAt) return { state: "used", email: request.email, confirmedAt: request.confirmedAt };
  if (request.expired) return { state: "expired" };
  return { state: "ready", email: request.email };
}

/**
 * Confirms the request behind a token, once: the conditional update lets exactly one of several
 * simultaneous confirmations win. In the same transaction the address's membership, if it has one,
 * is cancelled at the end of its paid period (the member gets an e-mail saying until when), and the
 * company is told. Only the confirmed answer, which goes to the holder of the e-mailed link and so to
 * the address's owner, says whether there was a membership and until when it runs; every other
 * answer is the same with or without one.
 */
export async function confirmCancellationLink(
  db: Database,
  token: string | null,
  { origin, now = new Date() }: { origin: string; now?: Date },
): Promise<CancellationLink> {
  if (!token || !TOKEN_PATTERN.test(token)) return { state: "unknown" };
  return db.transaction(async (tx) => {
    const [confirmed] = await tx
      .update(unsubscribeRequests)
      .set({ confirmedAt: sql`now()`, status: "confirmed" })
      .where(
        and(
          eq(unsubscribeRequests.tokenHash, hashToken(token)),
          isNull(unsubscribeRequests.confirmedAt),
          gt(unsubscribeRequests.expiresAt, sql`now()`),
        ),
      )
      .returning({ email: unsubscribeRequests.email, confirmedAt: unsubscribeRequests.confirmedAt });
    if (!confirmed) return inspectCancellationLink(tx, token);
    const membership = await cancelMembershipOfAddress(tx, { email: confirmed.email, now, origin });
    await enqueueMail(tx, {
      to: siteConfig.company.email,
      ...(await cancellationConfirmedNoticeMail({ email: confirmed.email, confirmedAt: confirmed.confirmedAt! })),
    });
    return { state: "confirmed", email: confirmed.email, membership };
  });
}
