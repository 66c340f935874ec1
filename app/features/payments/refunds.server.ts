import { desc, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { refunds, type CurrencyCode } from "~/db/schema";
import type { Actor } from "~/lib/actor";
import { enqueueMail } from "~/features/mail/outbox.server";
import type { PaymentGateway } from "./gateway";
import { refundIssuedMail, type RefundMailDetails } from "./refund-mail";

/** What a refund is of: an order (its fast track) or a membership's invoice. */
export type RefundTarget = { orderId: string } | { invoiceId: string };

export type RefundOutcome =
  /** Done now; `refundedTotal` counts it with the earlier refunds. */
  | { kind: "refunded"; amount: number; refundedTotal: number }
  /** This form was already sent: nothing more was refunded. */
  | { kind: "already-refunded"; refundedTotal: number }
  | { kind: "too-much"; refundable: number }
  | { kind: "nothing-paid" };

function targetColumn(target: RefundTarget) {
  return "orderId" in target ? eq(refunds.orderId, target.orderId) : eq(refunds.invoiceId, target.invoiceId);
}

/** How much of `target` was refunded so far, in minor units. */
export async function refundedSoFar(db: Database, target: RefundTarget): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${refunds.amount}), 0)` })
    .from(refunds)
    .where(targetColumn(target));
  return Number(row?.total ?? 0);
}

/** The refunds of `target`, newest first: how much, why, who and when. */
export async function listRefunds(db: Database, target: RefundTarget) {
  return db
    .select({
      id: refunds.id,
      amount: refunds.amount,
      currency: refunds.currency,
      reason: refunds.reason,
      actorLabel: refunds.actorLabel,
      createdAt: refunds.createdAt,
    })
    .from(refunds)
    .where(targetColumn(target))
    .orderBy(desc(refunds.createdAt), desc(refunds.id));
}

export type RefundRecord = Awaited<ReturnType<typeof listRefunds>>[number];

/**
 * Refunds `amount` of a charge through the gateway and records it with the reason, the admin and
 * the time, and e-mails the customer. Never more than `paid` less what was refunded before. The caller holds the target's row
 * lock in the transaction `db`, so that two refunds of one payment cannot both pass the cap; the
 * form's idempotency key (unique in `refunds`) makes a second submission a no-op, and the gateway
 * gets the same key.
 */
export async function issueRefund(
  db: Database,
  gateway: PaymentGateway,
  {
    target,
    chargeRef,
    paid,
    currency,
    amount,
    reason,
    idempotencyKey,
    actor,
    notify,
  }: {
    target: RefundTarget;
    /** The gateway's reference of the successful charge, or null if nothing was charged. */
    chargeRef: string | null;
    paid: number;
    currency: CurrencyCode;
    amount: number;
    reason: string;
    idempotencyKey: string;
    actor: Actor;
    /** Whom to e-mail about the refund, and what to say it was for; null when there is no address. */
    notify: Omit<RefundMailDetails, "amount" | "currency"> | null;
  },
): Promise<RefundOutcome> {
  const [earlier] = await db.select({ id: refunds.id }).from(refunds).where(eq(refunds.idempotencyKey, idempotencyKey));
  const refunded = await refundedSoFar(db, target);
  if (earlier) return { kind: "already-refunded", refundedTotal: refunded };
  if (!chargeRef) return { kind: "nothing-paid" };
  const refundable = paid - refunded;
  if (amount > refundable) return { kind: "too-much", refundable };
  const result = await gateway.refund({ chargeRef, amount, currency, idempotencyKey });
  // The gateway answered a retry with a refund its webhook already put in our ledger.
  const [recorded] = await db
    .select({ id: refunds.id })
    .from(refunds)
    .where(eq(refunds.providerRef, result.providerRef));
  if (recorded) return { kind: "already-refunded", refundedTotal: refunded };
  await db.insert(refunds).values({
    ...target,
    amount,
    currency,
    reason,
    idempotencyKey,
    providerRef: result.providerRef,
    actorUserId: actor.userId,
    actorLabel: actor.label,
  });
  if (notify) await enqueueMail(db, await refundIssuedMail({ ...notify, amount, currency }));
  return { kind: "refunded", amount, refundedTotal: refunded + amount };
}
