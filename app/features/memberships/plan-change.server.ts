import { and, eq, lte } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { invoices, memberships, planChanges, type CurrencyCode, type MembershipPlan } from "~/db/schema";
import type { CardFormGateway } from "~/features/payments/gateway";
import type { Actor } from "~/lib/actor";
import { logger } from "~/logger.server";
import { enqueueMail } from "~/platform/mail/outbox.server";
import { monthlyFreeAccesses } from "./fast-track-allowance";
import { changeMembership, type Membership } from "./membership-status.server";
import { membershipPlanName } from "./membership-status";
import { planChangedMail, type PlanChangeDone } from "./plan-change-mail";
import { planChangeKind, type PlanChangeRefusal } from "./plan-change";
import { planFee } from "./trial-offer";

export type PlanChangeOutcome =
  | { kind: "changed"; plan: MembershipPlan; charged: number; currency: CurrencyCode }
  | { kind: "scheduled"; plan: MembershipPlan; from: Date }
  | { kind: "declined"; message: string }
  | { kind: "refused"; reason: PlanChangeRefusal }
  /** The difference is no longer what the page showed (a day passed): shown again, nothing charged. */
  | { kind: "amount-changed"; amount: number }
  | { kind: "not-found" };

export interface PlanChangeRequest {
  membershipId: string;
  to: MembershipPlan;
  /** The difference the page showed, for an upgrade: charged only if it is still the amount due. */
  expectedAmount: number | null;
  /** The form's key: the same request sent twice is one change and at most one charge. */
  idempotencyKey: string;
  actor: Actor;
  now: Date;
  origin: string;
}

type PlanChange = typeof planChanges.$inferSelect;

const NOTE = (from: MembershipPlan, to: MembershipPlan) =>
  `Formule : ${membershipPlanName(from)} → ${membershipPlanName(to)}`;

/**
 * Changes a membership's plan (ADR 030). In the trial, the plan that will be charged changes; to a
 * cheaper plan in a paid quarter, the change is kept for the billing job to make when the quarter
 * ends; to a dearer one, it is made at once and the prorated difference charged to the card on file,
 * in three steps as every charge here (ADR 004): the change and its key written first, the gateway
 * called outside any transaction, its answer recorded with the membership locked. Each change goes
 * in the membership's history, with who and when, and is confirmed by e-mail.
 */
export async function changePlan(
  db: Database,
  gateway: CardFormGateway,
  request: PlanChangeRequest,
): Promise<PlanChangeOutcome> {
  const opened = await db.transaction(async (tx): Promise<{ outcome: PlanChangeOutcome } | { charge: PlanChange }> => {
    const [known] = await tx.select().from(planChanges).where(eq(planChanges.idempotencyKey, request.idempotencyKey));
    if (known) return { charge: known };
    const [membership] = await tx
      .select()
      .from(memberships)
      .where(eq(memberships.id, request.membershipId))
      .for("update");
    if (!membership) return { outcome: { kind: "not-found" } };
    const change = planChangeKind(
      { ...membership, providerBilled: membership.providerSubscriptionRef !== null },
      request.to,
      request.now,
    );
    switch (change.kind) {
      case "refused":
        return { outcome: change };
      case "trial":
        await makeChange(tx, membership, request, { kind: "trial", firstCharge: membership.currentPeriodEnd });
        return { outcome: { kind: "changed", plan: request.to, charged: 0, currency: membership.currency } };
      case "downgrade":
        await changeMembership(tx, {
          membershipId: membership.id,
          to: membership.status,
          actor: request.actor,
          note: `${NOTE(membership.plan, request.to)} à la fin de la période payée`,
          changes: { scheduledPlan: request.to },
        });
        await confirm(tx, membership, request, { kind: "downgrade", from: change.from });
        return { outcome: { kind: "scheduled", plan: request.to, from: change.from } };
      case "upgrade": {
        if (request.expectedAmount !== null && request.expectedAmount !== change.amount) {
          return { outcome: { kind: "amount-changed", amount: change.amount } };
        }
        // A difference already on its way to the card (another form, another tab): that one charge is
        // finished, never a second one started beside it.
        const [pending] = await tx
          .select()
          .from(planChanges)
          .where(and(eq(planChanges.membershipId, membership.id), eq(planChanges.status, "charging")));
        if (pending) {
          return pending.toPlan === request.to
            ? { charge: pending }
            : { outcome: { kind: "refused", reason: "changing" } };
        }
        if (change.amount === 0) {
          await makeChange(tx, membership, request, {
            kind: "upgrade",
            charged: 0,
            invoiceNumber: null,
            nextCharge: membership.currentPeriodEnd,
          });
          return { outcome: { kind: "changed", plan: request.to, charged: 0, currency: membership.currency } };
        }
        const [charge] = await tx
          .insert(planChanges)
          .values({
            membershipId: membership.id,
            fromPlan: membership.plan,
            toPlan: request.to,
            amount: change.amount,
            currency: membership.currency,
            idempotencyKey: request.idempotencyKey,
            actorUserId: request.actor.userId,
            actorLabel: request.actor.label,
            createdAt: request.now,
          })
          .returning();
        return { charge: charge! };
      }
    }
  });
  if ("outcome" in opened) return opened.outcome;
  return settlePlanChange(db, gateway, opened.charge, request.origin);
}

/**
 * The difference charged under the change's key, and the answer recorded: for the request that wrote
 * the change, for the same form sent again, and for the billing job when neither finished it.
 */
async function settlePlanChange(
  db: Database,
  gateway: CardFormGateway,
  charge: PlanChange,
  origin: string,
): Promise<PlanChangeOutcome> {
  if (charge.status === "done")
    return { kind: "changed", plan: charge.toPlan, charged: charge.amount, currency: charge.currency };
  if (charge.status === "declined")
    return { kind: "declined", message: charge.lastOutcome ?? "Your card was declined." };

  const [card] = await db
    .select({ ref: memberships.paymentMethodRef })
    .from(memberships)
    .where(eq(memberships.id, charge.membershipId));
  const answer = await gateway.chargeSaved({
    paymentMethodRef: card!.ref,
    customerPresent: true,
    amount: charge.amount,
    currency: charge.currency,
    idempotencyKey: `plan-change:${charge.idempotencyKey}`,
  });

  return db.transaction(async (tx): Promise<PlanChangeOutcome> => {
    const [membership] = await tx
      .select()
      .from(memberships)
      .where(eq(memberships.id, charge.membershipId))
      .for("update");
    const [current] = await tx.select().from(planChanges).where(eq(planChanges.id, charge.id)).for("update");
    // Recorded meanwhile by a request with the same key, which had the same answer.
    if (current!.status === "done")
      return { kind: "changed", plan: charge.toPlan, charged: charge.amount, currency: charge.currency };
    if (current!.status === "declined") return { kind: "declined", message: current!.lastOutcome ?? answer.message };
    const settledAt = new Date();
    if (answer.outcome !== "succeeded") {
      await tx
        .update(planChanges)
        .set({ status: "declined", lastOutcome: answer.message, settledAt })
        .where(eq(planChanges.id, charge.id));
      return { kind: "declined", message: answer.message };
    }
    const [invoice] = await tx
      .insert(invoices)
      .values({
        membershipId: charge.membershipId,
        periodStart: charge.createdAt,
        periodEnd: membership!.currentPeriodEnd,
        amount: charge.amount,
        currency: charge.currency,
        status: "paid",
        attempts: 1,
        idempotencyKey: `plan-change:${charge.idempotencyKey}`,
        providerRef: answer.providerRef,
        lastOutcome: answer.outcome,
        paidAt: settledAt,
      })
      .returning({ id: invoices.id, number: invoices.number });
    await tx
      .update(planChanges)
      .set({ status: "done", invoiceId: invoice!.id, lastOutcome: answer.outcome, settledAt })
      .where(eq(planChanges.id, charge.id));
    await makeChange(
      tx,
      membership!,
      { to: charge.toPlan, actor: { userId: charge.actorUserId, label: charge.actorLabel }, origin },
      {
        kind: "upgrade",
        charged: charge.amount,
        invoiceNumber: invoice!.number,
        nextCharge: membership!.currentPeriodEnd,
      },
    );
    return { kind: "changed", plan: charge.toPlan, charged: charge.amount, currency: charge.currency };
  });
}

export type KeepPlanOutcome =
  | { kind: "kept"; plan: MembershipPlan; instead: MembershipPlan }
  | { kind: "nothing-scheduled" }
  | { kind: "not-found" };

/**
 * Calls off a move to a cheaper plan asked for this quarter (ADR 030): the membership stays on its
 * plan and is billed its fee when the quarter ends. In the history, with who, and confirmed by e-mail.
 */
export async function keepPlan(
  db: Database,
  { membershipId, actor, origin }: { membershipId: string; actor: Actor; origin: string },
): Promise<KeepPlanOutcome> {
  return db.transaction(async (tx): Promise<KeepPlanOutcome> => {
    const [membership] = await tx.select().from(memberships).where(eq(memberships.id, membershipId)).for("update");
    if (!membership) return { kind: "not-found" };
    const instead = membership.scheduledPlan;
    if (!instead) return { kind: "nothing-scheduled" };
    await changeMembership(tx, {
      membershipId,
      to: membership.status,
      actor,
      note: `Formule : passage en ${membershipPlanName(instead)} annulé, ${membershipPlanName(membership.plan)} conservée`,
      changes: { scheduledPlan: null },
    });
    await confirm(
      tx,
      membership,
      { to: membership.plan, origin },
      { kind: "kept", abandoned: membershipPlanName(instead), nextCharge: membership.currentPeriodEnd },
    );
    return { kind: "kept", plan: membership.plan, instead };
  });
}

/**
 * Finishes the plan changes left 'charging' for longer than `leaseMs` on the job's clock: their request
 * died between writing the change and recording the card's answer. The gateway, asked again under the
 * same key, answers with the charge it made, or makes the one it never received. One the gateway does
 * not answer is left for the next run. Returns how many were finished, and how many left.
 */
export async function finishPlanChanges(
  db: Database,
  gateway: CardFormGateway,
  { now, leaseMs, origin }: { now: Date; leaseMs: number; origin: string },
): Promise<{ finished: number; unanswered: number }> {
  const stuck = await db
    .select()
    .from(planChanges)
    .where(and(eq(planChanges.status, "charging"), lte(planChanges.createdAt, new Date(now.getTime() - leaseMs))))
    .orderBy(planChanges.createdAt);
  let finished = 0;
  for (const charge of stuck) {
    try {
      await settlePlanChange(db, gateway, charge, origin);
      finished += 1;
    } catch (error) {
      logger.warn({ err: error, planChangeId: charge.id }, "plan change: not finished, tried again next run");
    }
  }
  return { finished, unanswered: stuck.length - finished };
}

/** The plan and its fee change now: in the history, with who, and confirmed by e-mail. */
async function makeChange(
  tx: Database,
  membership: Membership,
  { to, actor, origin }: Pick<PlanChangeRequest, "to" | "actor" | "origin">,
  done: PlanChangeDone,
) {
  const note =
    done.kind === "upgrade" && done.charged > 0
      ? `${NOTE(membership.plan, to)}, différence payée (facture ${done.invoiceNumber ?? "?"})`
      : NOTE(membership.plan, to);
  await changeMembership(tx, {
    membershipId: membership.id,
    to: membership.status,
    actor,
    note,
    changes: { plan: to, price: planFee(to), scheduledPlan: null },
  });
  await confirm(tx, membership, { to, origin }, done);
}

async function confirm(
  tx: Database,
  membership: Membership,
  { to, origin }: Pick<PlanChangeRequest, "to" | "origin">,
  change: PlanChangeDone,
) {
  if (!membership.email) return;
  await enqueueMail(
    tx,
    await planChangedMail({
      to: membership.email,
      planName: membershipPlanName(to),
      fromPlanName: membershipPlanName(membership.plan),
      price: planFee(to),
      currency: membership.currency,
      origin,
      freeAccesses: monthlyFreeAccesses(to),
      change,
    }),
  );
}
