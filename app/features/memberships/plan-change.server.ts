import { randomUUID } from "node:crypto";
import { and, eq, isNotNull, isNull, lte } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { invoices, memberships, planChanges, type CurrencyCode, type MembershipPlan } from "~/db/schema";
import type { PaymentGateway, ProviderPlanChange } from "~/features/payments/gateway";
import type { Actor } from "~/lib/actor";
import { logger } from "~/logger.server";
import { enqueueMail } from "~/platform/mail/outbox.server";
import { monthlyFreeAccesses } from "./fast-track-allowance";
import { changeMembership, type Membership } from "./membership-status.server";
import { membershipPlanName } from "./membership-status";
import { planChangedMail, type PlanChangeDone } from "./plan-change-mail";
import { otherPlan, planChangeKind, prorationDate, type PlanChangeKind, type PlanChangeRefusal } from "./plan-change";
import { providerInvoiceKey } from "./provider-billing.server";
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
 * What moving `membership` to `to` does now (ADR 030). A membership its provider bills (Stripe) is
 * charged the difference its provider works out: the provider's preview at the day's proration date.
 * Calls the gateway: never inside a transaction.
 */
export async function quotePlanChange(
  gateway: PaymentGateway,
  membership: Membership,
  to: MembershipPlan,
  now: Date,
): Promise<PlanChangeKind> {
  const change = planChangeKind(membership, to, now);
  const subscriptionRef = membership.providerSubscriptionRef;
  if (!subscriptionRef || change.kind === "refused") return change;
  if (gateway.kind !== "hosted-card") return { kind: "refused", reason: "providerBilled" };
  if (change.kind !== "upgrade" || change.amount === 0) return change;
  try {
    const amount = await gateway.previewPlanChange({
      subscriptionRef,
      plan: to,
      currency: membership.currency,
      prorationDate: prorationDate(periodOf(membership, now)),
    });
    return { kind: "upgrade", amount };
  } catch (error) {
    logger.warn({ err: error, membershipId: membership.id }, "plan change: the provider did not price it");
    return { kind: "refused", reason: "unpriced" };
  }
}

/** What moving the membership to its other plan does now, for the account's and the back office's offer. */
export async function otherPlanQuote(db: Database, gateway: PaymentGateway, membershipId: string, now: Date) {
  const [membership] = await db.select().from(memberships).where(eq(memberships.id, membershipId));
  return membership ? quotePlanChange(gateway, membership, otherPlan(membership.plan), now) : undefined;
}

/**
 * For a membership its provider bills, before the change is written: its quote, and for a change that
 * charges nothing now (the trial, a move to a cheaper plan), the provider's price moved first, so that
 * it never bills a plan the membership does not have (ADR 030). Undefined for one we bill.
 */
async function prepareProviderChange(
  db: Database,
  gateway: PaymentGateway,
  request: PlanChangeRequest,
): Promise<{ quote: PlanChangeKind; moved: boolean } | undefined> {
  const [membership] = await db.select().from(memberships).where(eq(memberships.id, request.membershipId));
  if (!membership?.providerSubscriptionRef) return undefined;
  const quote = await quotePlanChange(gateway, membership, request.to, request.now);
  const free = quote.kind === "trial" || quote.kind === "downgrade" || (quote.kind === "upgrade" && quote.amount === 0);
  if (!free || gateway.kind !== "hosted-card") return { quote, moved: false };
  await gateway.changeSubscriptionPlan({
    subscriptionRef: membership.providerSubscriptionRef,
    plan: request.to,
    currency: membership.currency,
    idempotencyKey: `plan-change:${request.idempotencyKey}`,
  });
  return { quote, moved: true };
}

/** The provider's price back to the plan it must bill next, after a move the change then did not make. */
async function restoreProviderPlan(db: Database, gateway: PaymentGateway, request: PlanChangeRequest) {
  const [membership] = await db.select().from(memberships).where(eq(memberships.id, request.membershipId));
  if (!membership?.providerSubscriptionRef || gateway.kind !== "hosted-card") return;
  await gateway.changeSubscriptionPlan({
    subscriptionRef: membership.providerSubscriptionRef,
    plan: membership.scheduledPlan ?? membership.plan,
    currency: membership.currency,
    idempotencyKey: `plan-change:${request.idempotencyKey}:restore`,
  });
}

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
  gateway: PaymentGateway,
  request: PlanChangeRequest,
): Promise<PlanChangeOutcome> {
  const provider = await prepareProviderChange(db, gateway, request);
  const opened = await openPlanChange(db, request, provider?.quote);
  if (provider?.moved && "outcome" in opened && !["changed", "scheduled"].includes(opened.outcome.kind)) {
    await restoreProviderPlan(db, gateway, request);
  }
  if ("outcome" in opened) return opened.outcome;
  return settlePlanChange(db, gateway, opened.charge, request.origin);
}

/**
 * The change decided with the membership locked: made at once, scheduled, refused, or, for a
 * difference to charge, written with its key for `settlePlanChange`. `quote`: the provider's, which
 * stands only while the membership still gives the same kind of change.
 */
function openPlanChange(db: Database, request: PlanChangeRequest, quote: PlanChangeKind | undefined) {
  return db.transaction(async (tx): Promise<{ outcome: PlanChangeOutcome } | { charge: PlanChange }> => {
    const [known] = await tx.select().from(planChanges).where(eq(planChanges.idempotencyKey, request.idempotencyKey));
    if (known) return { charge: known };
    const [membership] = await tx
      .select()
      .from(memberships)
      .where(eq(memberships.id, request.membershipId))
      .for("update");
    if (!membership) return { outcome: { kind: "not-found" } };
    const locked = planChangeKind(membership, request.to, request.now);
    // Changed meanwhile (a renewal, another change): the quote no longer holds.
    const change =
      !quote || locked.kind === "refused" ? locked : quote.kind === locked.kind ? quote : refused("changing");
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
            prorationDate: membership.providerSubscriptionRef ? prorationDate(periodOf(membership, request.now)) : null,
          })
          .returning();
        return { charge: charge! };
      }
    }
  });
}

const refused = (reason: PlanChangeRefusal): PlanChangeKind => ({ kind: "refused", reason });

const periodOf = (membership: Membership, now: Date) => ({
  periodStart: membership.currentPeriodStart,
  periodEnd: membership.currentPeriodEnd,
  now,
});

/**
 * The difference charged under the change's key, and the answer recorded: for the request that wrote
 * the change, for the same form sent again, and for the billing job when neither finished it.
 */
async function settlePlanChange(
  db: Database,
  gateway: PaymentGateway,
  charge: PlanChange,
  origin: string,
): Promise<PlanChangeOutcome> {
  if (charge.status === "done")
    return { kind: "changed", plan: charge.toPlan, charged: charge.amount, currency: charge.currency };
  if (charge.status === "declined")
    return { kind: "declined", message: charge.lastOutcome ?? "Your card was declined." };

  const answer = await chargeDifference(db, gateway, charge);

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
    if (current!.status === "declined")
      return { kind: "declined", message: current!.lastOutcome ?? "Your card was declined." };
    const settledAt = new Date();
    if (answer.outcome === "declined") {
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
        amount: answer.amount,
        currency: charge.currency,
        status: "paid",
        attempts: 1,
        idempotencyKey: answer.invoiceKey,
        providerRef: answer.providerRef,
        lastOutcome: answer.outcome,
        paidAt: settledAt,
      })
      .returning({ id: invoices.id, number: invoices.number });
    await tx
      .update(planChanges)
      .set({ status: "done", amount: answer.amount, invoiceId: invoice!.id, lastOutcome: answer.outcome, settledAt })
      .where(eq(planChanges.id, charge.id));
    await makeChange(
      tx,
      membership!,
      { to: charge.toPlan, actor: { userId: charge.actorUserId, label: charge.actorLabel }, origin },
      {
        kind: "upgrade",
        charged: answer.amount,
        invoiceNumber: invoice!.number,
        nextCharge: membership!.currentPeriodEnd,
      },
    );
    return { kind: "changed", plan: charge.toPlan, charged: answer.amount, currency: charge.currency };
  });
}

type DifferenceAnswer =
  | { outcome: "succeeded"; amount: number; providerRef: string | undefined; invoiceKey: string }
  | { outcome: "declined"; message: string };

/**
 * The difference charged under the change's key: by the sandbox to the card on file, or by the
 * provider that bills the membership, which moves its price and invoices its proration in one call.
 */
async function chargeDifference(db: Database, gateway: PaymentGateway, charge: PlanChange): Promise<DifferenceAnswer> {
  const idempotencyKey = `plan-change:${charge.idempotencyKey}`;
  const [membership] = await db.select().from(memberships).where(eq(memberships.id, charge.membershipId));
  if (charge.prorationDate) {
    if (gateway.kind !== "hosted-card" || !membership!.providerSubscriptionRef) {
      throw new Error(`plan change ${charge.id} is billed by a provider this site is not configured with`);
    }
    const answer: ProviderPlanChange = await gateway.changeSubscriptionPlan({
      subscriptionRef: membership!.providerSubscriptionRef,
      plan: charge.toPlan,
      currency: charge.currency,
      idempotencyKey,
      prorationDate: charge.prorationDate,
    });
    if (answer.outcome === "declined") return answer;
    return {
      outcome: "succeeded",
      amount: answer.amount,
      providerRef: answer.paymentRef,
      // The provider's invoice, one row of ours: its webhook then finds it recorded.
      invoiceKey: answer.invoiceRef ? providerInvoiceKey(gateway.name, answer.invoiceRef) : idempotencyKey,
    };
  }
  if (gateway.kind !== "card-form")
    throw new Error(`plan change ${charge.id} is charged by the sandbox, not configured`);
  const answer = await gateway.chargeSaved({
    paymentMethodRef: membership!.paymentMethodRef,
    customerPresent: true,
    amount: charge.amount,
    currency: charge.currency,
    idempotencyKey,
  });
  return answer.outcome === "succeeded"
    ? { outcome: "succeeded", amount: charge.amount, providerRef: answer.providerRef, invoiceKey: idempotencyKey }
    : { outcome: "declined", message: answer.message };
}

export type KeepPlanOutcome =
  | { kind: "kept"; plan: MembershipPlan; instead: MembershipPlan }
  | { kind: "nothing-scheduled" }
  | { kind: "refused"; reason: "providerBilled" }
  | { kind: "not-found" };

/**
 * Calls off a move to a cheaper plan asked for this quarter (ADR 030): the membership stays on its
 * plan and is billed its fee when the quarter ends. In the history, with who, and confirmed by e-mail.
 * The provider that bills it is set back to the plan's price first.
 */
export async function keepPlan(
  db: Database,
  gateway: PaymentGateway,
  { membershipId, actor, origin }: { membershipId: string; actor: Actor; origin: string },
): Promise<KeepPlanOutcome> {
  const [billed] = await db.select().from(memberships).where(eq(memberships.id, membershipId));
  if (billed?.providerSubscriptionRef && billed.scheduledPlan) {
    if (gateway.kind !== "hosted-card") return { kind: "refused", reason: "providerBilled" };
    await gateway.changeSubscriptionPlan({
      subscriptionRef: billed.providerSubscriptionRef,
      plan: billed.plan,
      currency: billed.currency,
      idempotencyKey: `keep-plan:${randomUUID()}`,
    });
  }
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
  gateway: PaymentGateway,
  { now, leaseMs, origin }: { now: Date; leaseMs: number; origin: string },
): Promise<{ finished: number; unanswered: number }> {
  // Each gateway finishes its own: the sandbox's from the billing job, the provider's from the follow-up.
  const billedBy =
    gateway.kind === "hosted-card" ? isNotNull(planChanges.prorationDate) : isNull(planChanges.prorationDate);
  const stuck = await db
    .select()
    .from(planChanges)
    .where(
      and(eq(planChanges.status, "charging"), billedBy, lte(planChanges.createdAt, new Date(now.getTime() - leaseMs))),
    )
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
