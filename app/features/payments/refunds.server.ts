import { and, asc, desc, eq, inArray, lt, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Database } from "~/db/client.server";
import { refunds, type CurrencyCode } from "~/db/schema";
import type { Actor } from "~/lib/actor";
import { enqueueMail } from "~/platform/mail/outbox.server";
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
  /** All that is left, asked for by a form that has not confirmed it: nothing refunded, the step shown. */
  | { kind: "confirm-full"; amount: number }
  | { kind: "nothing-paid" };

/** What a refund needs to know of the order or invoice it gives money back for. */
export interface RefundSubject {
  /** The gateway's reference of the successful charge, or null if nothing was charged. */
  chargeRef: string | null;
  /** Minor units of `currency`. */
  paid: number;
  currency: CurrencyCode;
  /** Whom to e-mail about the refund, and what to say it was for; null when there is no address. */
  notify: Omit<RefundMailDetails, "amount" | "currency"> | null;
}

/** How refunds reach one kind of thing that is paid for (orders, or invoices). */
export interface Refundable<Target extends RefundTarget> {
  /** Locks `target`'s row in `tx` and says what a refund of it needs; null when there is none. */
  lock(tx: Database, target: Target): Promise<RefundSubject | null>;
  /** Called under that lock when the refunds made reach what was paid. */
  fullyRefunded(tx: Database, target: Target, refund: { actor: Actor; reason: string }): Promise<void>;
}

export interface RefundRequest<Target extends RefundTarget> {
  target: Target;
  /** Minor units. */
  amount: number;
  reason: string;
  idempotencyKey: string;
  actor: Actor;
  /**
   * False from a back-office form whose admin has not yet confirmed refunding everything that is
   * left: such a refund is then refused with `confirm-full`. Undefined: no confirmation asked.
   */
  fullConfirmed?: boolean;
}

function targetColumn(target: RefundTarget) {
  return "orderId" in target ? eq(refunds.orderId, target.orderId) : eq(refunds.invoiceId, target.invoiceId);
}

/**
 * How much of `target` was refunded so far, in minor units, counting the refunds still waiting for
 * the gateway: what may still be refunded is what was paid less this.
 */
export async function refundedSoFar(db: Database, target: RefundTarget): Promise<number> {
  return sumOfRefunds(db, targetColumn(target));
}

async function sumOfRefunds(db: Database, where: ReturnType<typeof and>) {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${refunds.amount}), 0)` })
    .from(refunds)
    .where(where);
  return Number(row?.total ?? 0);
}

/**
 * The refunds of an order, or of a membership's invoices, newest first: how much, why, who, when, and
 * whether the gateway has answered.
 */
export async function listRefunds(db: Database, of: { orderId: string } | { invoiceIds: string[] }) {
  if ("invoiceIds" in of && of.invoiceIds.length === 0) return [];
  return db
    .select({
      id: refunds.id,
      invoiceId: refunds.invoiceId,
      amount: refunds.amount,
      currency: refunds.currency,
      reason: refunds.reason,
      status: refunds.status,
      actorLabel: refunds.actorLabel,
      createdAt: refunds.createdAt,
    })
    .from(refunds)
    .where("orderId" in of ? eq(refunds.orderId, of.orderId) : inArray(refunds.invoiceId, of.invoiceIds))
    .orderBy(desc(refunds.createdAt), desc(refunds.id));
}

export type RefundRecord = Awaited<ReturnType<typeof listRefunds>>[number];

/** `fresh`: this call wrote the refund, where a repeat of its key found it still pending. */
export type ReserveOutcome =
  { kind: "reserved"; refundId: string; fresh: boolean } | Exclude<RefundOutcome, { kind: "refunded" }>;

/**
 * The first half of a refund, in the caller's transaction `tx`: under `target`'s lock, never more
 * than was paid less what was refunded or is being refunded, the refund is written 'pending' with
 * its idempotency key, before the gateway is asked (ADR 004). The same key again finds it: done, or
 * still pending (then it is finished with the same key, which the gateway answers once). Returns
 * null when the target does not exist.
 */
export async function reserveRefund<Target extends RefundTarget>(
  tx: Database,
  refundable: Refundable<Target>,
  { target, amount, reason, idempotencyKey, actor, fullConfirmed }: RefundRequest<Target>,
): Promise<ReserveOutcome | null> {
  const subject = await refundable.lock(tx, target);
  if (!subject) return null;
  const [earlier] = await tx
    .select({ id: refunds.id, status: refunds.status })
    .from(refunds)
    .where(eq(refunds.idempotencyKey, idempotencyKey));
  if (earlier?.status === "pending") return { kind: "reserved", refundId: earlier.id, fresh: false };
  const refunded = await refundedSoFar(tx, target);
  if (earlier) return { kind: "already-refunded", refundedTotal: refunded };
  if (!subject.chargeRef) return { kind: "nothing-paid" };
  const left = subject.paid - refunded;
  if (amount > left) return { kind: "too-much", refundable: left };
  if (amount === left && fullConfirmed === false) return { kind: "confirm-full", amount };
  const [reserved] = await tx
    .insert(refunds)
    .values({
      ...target,
      amount,
      currency: subject.currency,
      reason,
      idempotencyKey,
      status: "pending",
      chargeRef: subject.chargeRef,
      actorUserId: actor.userId,
      actorLabel: actor.label,
    })
    .returning({ id: refunds.id });
  return { kind: "reserved", refundId: reserved!.id, fresh: true };
}

function targetOf(row: { orderId: string | null; invoiceId: string | null }): RefundTarget {
  return row.orderId ? { orderId: row.orderId } : { invoiceId: row.invoiceId! };
}

/**
 * The second half: asks the gateway for the pending refund `refundId` (outside any transaction, under
 * its key), then, under the target's lock again, records the gateway's reference, e-mails the
 * customer, and marks the target refunded when the refunds made reach what was paid. If the gateway
 * fails, the refund stays pending and the error is thrown: `finishPendingRefunds` asks again later.
 */
export async function finishRefund<Target extends RefundTarget>(
  db: Database,
  gateway: PaymentGateway,
  refundable: Refundable<Target>,
  refundId: string,
): Promise<RefundOutcome> {
  const [pending] = await db.select().from(refunds).where(eq(refunds.id, refundId));
  if (!pending) throw new Error("No such refund");
  const target = targetOf(pending) as Target;
  if (pending.status === "done") return { kind: "already-refunded", refundedTotal: await refundedSoFar(db, target) };
  const result = await gateway.refund({
    chargeRef: pending.chargeRef!,
    amount: pending.amount,
    currency: pending.currency,
    idempotencyKey: pending.idempotencyKey,
  });
  return db.transaction(async (tx): Promise<RefundOutcome> => {
    const subject = await refundable.lock(tx, target);
    const outcome = subject && (await completePending(tx, refundable, target, subject, refundId, result.providerRef));
    return outcome ?? { kind: "already-refunded", refundedTotal: await refundedSoFar(tx, target) };
  });
}

/** `finishRefund` for the pending refund made under `idempotencyKey`; null when there is none. */
export async function finishRefundByKey<Target extends RefundTarget>(
  db: Database,
  gateway: PaymentGateway,
  refundable: Refundable<Target>,
  idempotencyKey: string,
): Promise<RefundOutcome | null> {
  const [pending] = await db
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.idempotencyKey, idempotencyKey), eq(refunds.status, "pending")));
  return pending ? finishRefund(db, gateway, refundable, pending.id) : null;
}

/**
 * Records the gateway's `providerRef` on the pending refund `refundId`, under the target's lock
 * (`subject`). Null when there is nothing left to do: it was done meanwhile (another call with the
 * same key), or the provider's webhook put this very refund in the ledger first (ADR 018), and the
 * pending row then goes.
 */
async function completePending<Target extends RefundTarget>(
  tx: Database,
  refundable: Refundable<Target>,
  target: Target,
  subject: RefundSubject,
  refundId: string,
  providerRef: string,
): Promise<RefundOutcome | null> {
  const [pending] = await tx.select().from(refunds).where(eq(refunds.id, refundId)).for("update");
  if (pending?.status !== "pending") return null;
  const [recorded] = await tx.select({ id: refunds.id }).from(refunds).where(eq(refunds.providerRef, providerRef));
  if (recorded) {
    await tx.delete(refunds).where(eq(refunds.id, refundId));
    return null;
  }
  await tx.update(refunds).set({ status: "done", providerRef }).where(eq(refunds.id, refundId));
  const actor = { userId: pending.actorUserId, label: pending.actorLabel };
  return afterRecording(tx, refundable, target, subject, { amount: pending.amount, reason: pending.reason, actor });
}

/** What follows a refund entering the ledger: the customer's e-mail, and the target refunded once all of it is. */
async function afterRecording<Target extends RefundTarget>(
  tx: Database,
  refundable: Refundable<Target>,
  target: Target,
  subject: RefundSubject,
  { amount, reason, actor }: { amount: number; reason: string; actor: Actor },
): Promise<RefundOutcome> {
  if (subject.notify) {
    await enqueueMail(tx, await refundIssuedMail({ ...subject.notify, amount, currency: subject.currency }));
  }
  const done = await sumOfRefunds(tx, and(targetColumn(target), eq(refunds.status, "done")));
  // Crossing the line now, not before: a later partial refund of an order already refunded changes nothing.
  if (done >= subject.paid && done - amount < subject.paid)
    await refundable.fullyRefunded(tx, target, { actor, reason });
  return { kind: "refunded", amount, refundedTotal: await refundedSoFar(tx, target) };
}

/**
 * Refunds all or part of a charge through the gateway and records it with the reason, the admin and
 * the time, and e-mails the customer: `reserveRefund` in a transaction of its own, then
 * `finishRefund`. A form sent twice refunds once (its key), and its repeat is told so. The first
 * sending is told its refund was made even when another hand recorded it first (the provider's
 * webhook, ADR 018, or a repeat that found it pending): the money went back because of it.
 */
export async function issueRefund<Target extends RefundTarget>(
  db: Database,
  gateway: PaymentGateway,
  refundable: Refundable<Target>,
  request: RefundRequest<Target>,
): Promise<RefundOutcome | null> {
  const reserved = await db.transaction((tx) => reserveRefund(tx, refundable, request));
  if (reserved?.kind !== "reserved") return reserved;
  const outcome = await finishRefund(db, gateway, refundable, reserved.refundId);
  if (outcome.kind !== "already-refunded" || !reserved.fresh) return outcome;
  return { kind: "refunded", amount: request.amount, refundedTotal: outcome.refundedTotal };
}

/**
 * Records in `tx` a refund the gateway reports for `target` that our ledger does not hold (ADR 018):
 * one of ours still pending (its key, `ours`), which is then done; or one made in the provider's
 * dashboard, recorded within what is left to refund. The customer is told, as for ours.
 */
export async function recordGatewayRefund<Target extends RefundTarget>(
  tx: Database,
  refundable: Refundable<Target>,
  { providerRef, ours, ...request }: RefundRequest<Target> & { providerRef: string; ours?: string },
): Promise<RefundOutcome | null> {
  const subject = await refundable.lock(tx, request.target);
  if (!subject) return null;
  const [pending] = ours
    ? await tx
        .select({ id: refunds.id })
        .from(refunds)
        .where(and(eq(refunds.idempotencyKey, ours), eq(refunds.status, "pending"), targetColumn(request.target)))
    : [];
  if (pending) return completePending(tx, refundable, request.target, subject, pending.id, providerRef);
  const refunded = await refundedSoFar(tx, request.target);
  if (request.amount > subject.paid - refunded) return { kind: "too-much", refundable: subject.paid - refunded };
  const [inserted] = await tx
    .insert(refunds)
    .values({
      ...request.target,
      amount: request.amount,
      currency: subject.currency,
      reason: request.reason,
      idempotencyKey: request.idempotencyKey,
      providerRef,
      actorUserId: request.actor.userId,
      actorLabel: request.actor.label,
    })
    .onConflictDoNothing()
    .returning({ id: refunds.id });
  if (!inserted) return { kind: "already-refunded", refundedTotal: refunded };
  return afterRecording(tx, refundable, request.target, subject, request);
}

/** How long a refund may stay pending before `finishPendingRefunds` takes it over from its request. */
export const PENDING_REFUND_GRACE_MS = 5 * 60_000;

/**
 * Finishes the refunds left pending (a crash, or the gateway failing, between the two halves) that
 * are older than `PENDING_REFUND_GRACE_MS`: the gateway is asked again under the same key, so it
 * refunds once. A refund the gateway still fails stays pending for the next run. Returns how many
 * were finished.
 */
export async function finishPendingRefunds(
  db: Database,
  gateway: PaymentGateway,
  refundables: { orders: Refundable<{ orderId: string }>; invoices: Refundable<{ invoiceId: string }> },
  { now, logger }: { now: Date; logger: Pick<Logger, "warn"> },
): Promise<number> {
  const pending = await db
    .select({ id: refunds.id, orderId: refunds.orderId })
    .from(refunds)
    .where(and(eq(refunds.status, "pending"), lt(refunds.createdAt, new Date(now.getTime() - PENDING_REFUND_GRACE_MS))))
    .orderBy(asc(refunds.createdAt))
    .limit(100);
  let finished = 0;
  for (const { id, orderId } of pending) {
    try {
      const outcome = orderId
        ? await finishRefund(db, gateway, refundables.orders, id)
        : await finishRefund(db, gateway, refundables.invoices, id);
      if (outcome.kind === "refunded") finished++;
    } catch (error) {
      logger.warn({ err: error, refundId: id }, "refunds: a pending refund could not be finished");
    }
  }
  return finished;
}
