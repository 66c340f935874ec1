import { siteConfig } from "../../../site.config";
import { and, asc, eq, inArray, isNull, or, sql, type AnyColumn } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import {
  contactMessages,
  customers,
  invoices,
  membershipEvents,
  memberships,
  orders,
  outbox,
  payments,
  refunds,
  session,
  unsubscribeRequests,
  user,
  userRoles,
  withdrawals,
  type CurrencyCode,
  type MembershipPlan,
} from "~/db/schema";
import { cancelMembership } from "~/features/memberships/cancellation.server";
import { isLiveMembership } from "~/features/memberships/membership-status";
import type { Actor } from "~/lib/actor";
import { ANONYMISED_CUSTOMER_NAME, eraseCustomers } from "./customer-removal.server";

/** Money given back, as the person sees it: how much, why and when (not which admin). */
interface RefundData {
  /** Minor units of `currency`. */
  amount: number;
  currency: CurrencyCode;
  reason: string;
  createdAt: Date;
}

/** Everything the site holds about one e-mail address: what an access request is answered with. */
export interface PersonalData {
  email: string;
  account: {
    id: string;
    name: string;
    fullName: string | null;
    email: string;
    createdAt: Date;
    roles: string[];
    /** Sign-in sessions, without their tokens. */
    sessions: { createdAt: Date; expiresAt: Date; ipAddress: string | null; userAgent: string | null }[];
  } | null;
  customers: {
    id: string;
    name: string;
    /** Airport, flight date, e-mail and phone, one per line, as entered on the booking form. */
    notes: string | null;
    createdAt: Date;
    orders: {
      orderNumber: string;
      status: string;
      serviceType: string;
      /** Minor units of `currency`. */
      amount: number;
      currency: CurrencyCode;
      airport: string | null;
      flightDate: string | null;
      adults: number;
      children: number;
      createdAt: Date;
      /** Card payments: only the brand and last 4 digits were ever stored. */
      payments: {
        brand: string;
        last4: string;
        amount: number;
        currency: CurrencyCode;
        outcome: string;
        createdAt: Date;
      }[];
      refunds: RefundData[];
    }[];
  }[];
  /** Memberships, with their history and invoices: of the address, or started by its bookings. */
  memberships: {
    plan: MembershipPlan;
    status: string;
    /** The fee per quarter, in minor units of `currency`. */
    price: number;
    currency: CurrencyCode;
    trialEndsAt: Date;
    currentPeriodStart: Date;
    currentPeriodEnd: Date;
    cancelAtPeriodEnd: boolean;
    endedAt: Date | null;
    /** The saved card: only its brand and last 4 digits (the provider's reference is not personal data to show). */
    cardBrand: string;
    cardLast4: string;
    createdAt: Date;
    events: { fromStatus: string | null; toStatus: string; note: string | null; createdAt: Date }[];
    invoices: {
      periodStart: Date;
      periodEnd: Date;
      amount: number;
      currency: CurrencyCode;
      status: string;
      attempts: number;
      paidAt: Date | null;
      createdAt: Date;
      refunds: RefundData[];
    }[];
  }[];
  contactMessages: {
    source: string;
    name: string;
    email: string;
    phone: string | null;
    message: string;
    createdAt: Date;
  }[];
  unsubscribeRequests: { email: string; status: string; confirmedAt: Date | null; createdAt: Date }[];
  /** Statements made through the withdrawal function with the address, as typed, and what each did. */
  withdrawals: { name: string; contractNumber: string; email: string; outcome: string; receivedAt: Date }[];
  /** E-mails sent (or queued) to the address, or about it (the company's copy of a contact message). */
  emails: { subject: string; text: string; status: string; createdAt: Date; sentAt: Date | null }[];
}

/**
 * A mail's text with each link's query cut off: one-time links (an address confirmation, an
 * unsubscribe confirmation) carry their secret there, and an export is a file that travels.
 */
function withoutLinkQueries(text: string): string {
  return text.replace(/(https?:\/\/[^\s?\]]+)\?[^\s\]]*/g, "$1?[removed]");
}

const sameAddress = (column: AnyColumn, email: string) => eq(sql`lower(${column})`, email.trim().toLowerCase());

/** The address as a whole word of a text: "ann@example.com" is not in "joann@example.com". */
function mentionsAddress(column: AnyColumn, email: string) {
  const escaped = email
    .trim()
    .toLowerCase()
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return sql`lower(${column}) ~ ${`(^|[^a-z0-9._%+-])${escaped}($|[^a-z0-9.-]|\\.($|[^a-z0-9]))`}`;
}

const mailsAbout = (email: string) => or(sameAddress(outbox.to, email), mentionsAddress(outbox.textBody, email));

/** The customers who booked with this address, or who belong to its account. */
async function customerIdsFor(db: Database, email: string, accountId: string | undefined) {
  const onEmailLine = eq(customers.email, email.trim().toLowerCase());
  const rows = await db
    .select({ id: customers.id })
    .from(customers)
    .where(accountId ? or(onEmailLine, eq(customers.userId, accountId)) : onEmailLine);
  return rows.map((row) => row.id);
}

/** The memberships of the address, or of these customers (its bookings), oldest first. */
function membershipsOf(db: Database, email: string, customerIds: string[]) {
  const ofAddress = eq(memberships.email, email.trim().toLowerCase());
  return db
    .select()
    .from(memberships)
    .where(customerIds.length ? or(ofAddress, inArray(memberships.customerId, customerIds)) : ofAddress)
    .orderBy(asc(memberships.createdAt));
}

const refundColumns = {
  orderId: refunds.orderId,
  invoiceId: refunds.invoiceId,
  amount: refunds.amount,
  currency: refunds.currency,
  reason: refunds.reason,
  createdAt: refunds.createdAt,
};

async function accountFor(db: Database, email: string) {
  const [account] = await db
    .select({ id: user.id, name: user.name, fullName: user.fullName, email: user.email, createdAt: user.createdAt })
    .from(user)
    .where(sameAddress(user.email, email));
  return account;
}

export async function findPersonalData(db: Database, email: string): Promise<PersonalData> {
  const account = await accountFor(db, email);
  const customerIds = await customerIdsFor(db, email, account?.id);
  const customerRows = customerIds.length
    ? await db
        .select({
          id: customers.id,
          name: customers.fullName,
          notes: customers.notes,
          createdAt: customers.createdAt,
        })
        .from(customers)
        .where(inArray(customers.id, customerIds))
        .orderBy(asc(customers.createdAt))
    : [];
  const orderRows = customerIds.length
    ? await db.select().from(orders).where(inArray(orders.customerId, customerIds)).orderBy(asc(orders.createdAt))
    : [];
  const paymentRows = orderRows.length
    ? await db
        .select()
        .from(payments)
        .where(
          inArray(
            payments.orderId,
            orderRows.map((order) => order.id),
          ),
        )
        .orderBy(asc(payments.createdAt))
    : [];
  const membershipRows = await membershipsOf(db, email, customerIds);
  const membershipIds = membershipRows.map((membership) => membership.id);
  const [eventRows, invoiceRows] = membershipIds.length
    ? await Promise.all([
        db
          .select()
          .from(membershipEvents)
          .where(inArray(membershipEvents.membershipId, membershipIds))
          .orderBy(asc(membershipEvents.createdAt), asc(membershipEvents.id)),
        db
          .select()
          .from(invoices)
          .where(inArray(invoices.membershipId, membershipIds))
          .orderBy(asc(invoices.periodStart)),
      ])
    : [[], []];
  const refundTargets = [
    ...(orderRows.length
      ? [
          inArray(
            refunds.orderId,
            orderRows.map((order) => order.id),
          ),
        ]
      : []),
    ...(invoiceRows.length
      ? [
          inArray(
            refunds.invoiceId,
            invoiceRows.map((invoice) => invoice.id),
          ),
        ]
      : []),
  ];
  const refundRows = refundTargets.length
    ? await db
        .select(refundColumns)
        .from(refunds)
        .where(or(...refundTargets))
        .orderBy(asc(refunds.createdAt))
    : [];
  const refundsOf = (target: { orderId: string } | { invoiceId: string }): RefundData[] =>
    refundRows
      .filter((refund) =>
        "orderId" in target ? refund.orderId === target.orderId : refund.invoiceId === target.invoiceId,
      )
      .map(({ amount, currency, reason, createdAt }) => ({ amount, currency, reason, createdAt }));

  return {
    email: email.trim(),
    account: account
      ? {
          ...account,
          roles: (
            await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, account.id))
          ).map((row) => row.role),
          sessions: await db
            .select({
              createdAt: session.createdAt,
              expiresAt: session.expiresAt,
              ipAddress: session.ipAddress,
              userAgent: session.userAgent,
            })
            .from(session)
            .where(eq(session.userId, account.id))
            .orderBy(asc(session.createdAt)),
        }
      : null,
    customers: customerRows.map((customer) => ({
      ...customer,
      orders: orderRows
        .filter((order) => order.customerId === customer.id)
        .map((order) => ({
          orderNumber: order.orderNumber,
          status: order.status,
          serviceType: order.serviceType,
          amount: order.amount,
          currency: order.currency,
          airport: order.airport,
          flightDate: order.flightDate,
          adults: order.adults,
          children: order.children,
          createdAt: order.createdAt,
          payments: paymentRows
            .filter((payment) => payment.orderId === order.id)
            .map(({ brand, last4, amount, currency, outcome, createdAt }) => ({
              brand,
              last4,
              amount,
              currency,
              outcome,
              createdAt,
            })),
          refunds: refundsOf({ orderId: order.id }),
        })),
    })),
    memberships: membershipRows.map((membership) => ({
      plan: membership.plan,
      status: membership.status,
      price: membership.price,
      currency: membership.currency,
      trialEndsAt: membership.trialEndsAt,
      currentPeriodStart: membership.currentPeriodStart,
      currentPeriodEnd: membership.currentPeriodEnd,
      cancelAtPeriodEnd: membership.cancelAtPeriodEnd,
      endedAt: membership.endedAt,
      cardBrand: membership.cardBrand,
      cardLast4: membership.cardLast4,
      createdAt: membership.createdAt,
      events: eventRows
        .filter((event) => event.membershipId === membership.id)
        .map(({ fromStatus, toStatus, note, createdAt }) => ({ fromStatus, toStatus, note, createdAt })),
      invoices: invoiceRows
        .filter((invoice) => invoice.membershipId === membership.id)
        .map((invoice) => ({
          periodStart: invoice.periodStart,
          periodEnd: invoice.periodEnd,
          amount: invoice.amount,
          currency: invoice.currency,
          status: invoice.status,
          attempts: invoice.attempts,
          paidAt: invoice.paidAt,
          createdAt: invoice.createdAt,
          refunds: refundsOf({ invoiceId: invoice.id }),
        })),
    })),
    contactMessages: await db
      .select({
        source: contactMessages.source,
        name: contactMessages.name,
        email: contactMessages.email,
        phone: contactMessages.phone,
        message: contactMessages.message,
        createdAt: contactMessages.createdAt,
      })
      .from(contactMessages)
      .where(sameAddress(contactMessages.email, email))
      .orderBy(asc(contactMessages.createdAt)),
    unsubscribeRequests: await db
      .select({
        email: unsubscribeRequests.email,
        status: unsubscribeRequests.status,
        confirmedAt: unsubscribeRequests.confirmedAt,
        createdAt: unsubscribeRequests.createdAt,
      })
      .from(unsubscribeRequests)
      .where(sameAddress(unsubscribeRequests.email, email))
      .orderBy(asc(unsubscribeRequests.createdAt)),
    withdrawals: await db
      .select({
        name: withdrawals.name,
        contractNumber: withdrawals.contractNumber,
        email: withdrawals.email,
        outcome: withdrawals.outcome,
        receivedAt: withdrawals.receivedAt,
      })
      .from(withdrawals)
      .where(sameAddress(withdrawals.email, email))
      .orderBy(asc(withdrawals.receivedAt)),
    emails: (
      await db
        .select({
          subject: outbox.subject,
          text: outbox.textBody,
          status: outbox.status,
          createdAt: outbox.createdAt,
          sentAt: outbox.sentAt,
        })
        .from(outbox)
        .where(mailsAbout(email))
        .orderBy(asc(outbox.createdAt))
    ).map((mail) => ({ ...mail, text: withoutLinkQueries(mail.text) })),
  };
}

/** How much a PersonalData holds, by kind: what the request's history records about an export. */
/** The JSON file of an access request's answer: who holds the data, when it was exported, then the data. */
export function personalDataFile(data: PersonalData, exportedAt: Date): string {
  return JSON.stringify({ controller: siteConfig.company.legalName, exportedAt, ...data }, null, 2);
}

export function personalDataCounts(data: PersonalData): Record<string, number> {
  const orderList = data.customers.flatMap((customer) => customer.orders);
  const invoiceList = data.memberships.flatMap((membership) => membership.invoices);
  return {
    accounts: data.account ? 1 : 0,
    customers: data.customers.length,
    orders: orderList.length,
    payments: orderList.flatMap((order) => order.payments).length,
    memberships: data.memberships.length,
    membershipEvents: data.memberships.flatMap((membership) => membership.events).length,
    invoices: invoiceList.length,
    refunds: [...orderList, ...invoiceList].flatMap((paid) => paid.refunds).length,
    contactMessages: data.contactMessages.length,
    unsubscribeRequests: data.unsubscribeRequests.length,
    withdrawals: data.withdrawals.length,
    emails: data.emails.length,
  };
}

export type ErasureOutcome =
  { erased: true; counts: Record<string, number> } | { erased: false; reason: "own-account" };

export interface ErasureContext {
  /** Who erases, as the history of a membership cancelled on the way records it; an admin cannot erase their own account this way. */
  actor: Actor;
  /** The site's origin, which cancelling a membership needs. */
  origin: string;
  now?: Date;
}

/**
 * Erases what the site holds about an address, in one transaction (ADR 008): a live membership is
 * cancelled at once, so that nothing is charged afterwards; unpaid orders are deleted; paid ones,
 * memberships, their invoices and refunds stay for the accounts, their customer anonymised and the
 * membership's address cleared; contact messages, unsubscribe requests and e-mails to the address
 * are deleted, and so is the account with its sessions. A withdrawal that matched a contract stays,
 * as the record of the statement and of the refund it made, without the name and address typed;
 * one that matched nothing is deleted.
 */
export async function erasePersonalData(
  db: Database,
  email: string,
  { actor, origin, now = new Date() }: ErasureContext,
): Promise<ErasureOutcome> {
  return db.transaction(async (tx) => {
    const account = await accountFor(tx, email);
    if (account && account.id === actor.userId) return { erased: false, reason: "own-account" };
    const customerIds = await customerIdsFor(tx, email, account?.id);
    const membershipRows = await membershipsOf(tx, email, customerIds).for("update");
    // The address goes first, so that the cancellation writes no e-mail to an address being erased.
    const membershipsAnonymised = membershipRows.length
      ? (
          await tx
            .update(memberships)
            .set({ email: null })
            .where(
              inArray(
                memberships.id,
                membershipRows.map((membership) => membership.id),
              ),
            )
            .returning({ id: memberships.id })
        ).length
      : 0;
    let membershipsCancelled = 0;
    for (const membership of membershipRows.filter((row) => isLiveMembership(row.status))) {
      const cancelled = await cancelMembership(tx, {
        membershipId: membership.id,
        atOnce: true,
        actor,
        now,
        origin,
      });
      if (cancelled.kind === "cancelled") membershipsCancelled += 1;
    }
    const removed = await eraseCustomers(tx, customerIds);
    const count = async (rows: Promise<unknown[]>) => (await rows).length;
    const counts = {
      membershipsCancelled,
      membershipsAnonymised,
      ordersDeleted: removed.orders,
      orderEvents: removed.orderEvents,
      paymentAttempts: removed.paymentAttempts,
      customersDeleted: removed.customersDeleted,
      customersAnonymised: removed.customersAnonymised,
      contactMessages: await count(
        tx
          .delete(contactMessages)
          .where(sameAddress(contactMessages.email, email))
          .returning({ id: contactMessages.id }),
      ),
      unsubscribeRequests: await count(
        tx
          .delete(unsubscribeRequests)
          .where(sameAddress(unsubscribeRequests.email, email))
          .returning({ id: unsubscribeRequests.id }),
      ),
      withdrawalsDeleted: await count(
        tx
          .delete(withdrawals)
          .where(and(sameAddress(withdrawals.email, email), isNull(withdrawals.orderId)))
          .returning({ id: withdrawals.id }),
      ),
      withdrawalsAnonymised: await count(
        tx
          .update(withdrawals)
          .set({ name: ANONYMISED_CUSTOMER_NAME, email: "" })
          .where(sameAddress(withdrawals.email, email))
          .returning({ id: withdrawals.id }),
      ),
      emails: await count(tx.delete(outbox).where(mailsAbout(email)).returning({ id: outbox.id })),
      accounts: account ? await count(tx.delete(user).where(eq(user.id, account.id)).returning({ id: user.id })) : 0,
    };
    return { erased: true, counts };
  });
}
