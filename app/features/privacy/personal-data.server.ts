import { asc, eq, inArray, or, sql, type AnyColumn } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import {
  contactMessages,
  customers,
  orders,
  outbox,
  payments,
  session,
  unsubscribeRequests,
  user,
  userRoles,
  type CurrencyCode,
} from "~/db/schema";
import { eraseCustomers } from "./customer-removal.server";

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
  /** E-mails sent (or queued) to the address, or about it (the company's copy of a contact message). */
  emails: { subject: string; text: string; status: string; createdAt: Date; sentAt: Date | null }[];
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
    emails: await db
      .select({
        subject: outbox.subject,
        text: outbox.textBody,
        status: outbox.status,
        createdAt: outbox.createdAt,
        sentAt: outbox.sentAt,
      })
      .from(outbox)
      .where(mailsAbout(email))
      .orderBy(asc(outbox.createdAt)),
  };
}

/** How much a PersonalData holds, by kind: what the request's history records about an export. */
export function personalDataCounts(data: PersonalData): Record<string, number> {
  const orderList = data.customers.flatMap((customer) => customer.orders);
  return {
    accounts: data.account ? 1 : 0,
    customers: data.customers.length,
    orders: orderList.length,
    payments: orderList.flatMap((order) => order.payments).length,
    contactMessages: data.contactMessages.length,
    unsubscribeRequests: data.unsubscribeRequests.length,
    emails: data.emails.length,
  };
}

export type ErasureOutcome =
  { erased: true; counts: Record<string, number> } | { erased: false; reason: "own-account" };

/**
 * Erases what the site holds about an address, in one transaction (ADR 008): unpaid orders are
 * deleted; paid ones stay for the accounts, their customer anonymised; contact messages,
 * unsubscribe requests and e-mails to the address are deleted, and so is the account with its
 * sessions. An admin cannot erase their own account this way (`actorUserId`).
 */
export async function erasePersonalData(db: Database, email: string, actorUserId: string): Promise<ErasureOutcome> {
  return db.transaction(async (tx) => {
    const account = await accountFor(tx, email);
    if (account?.id === actorUserId) return { erased: false, reason: "own-account" };
    const customerIds = await customerIdsFor(tx, email, account?.id);
    const removed = await eraseCustomers(tx, customerIds);
    const count = async (rows: Promise<unknown[]>) => (await rows).length;
    const counts = {
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
      emails: await count(tx.delete(outbox).where(mailsAbout(email)).returning({ id: outbox.id })),
      accounts: account ? await count(tx.delete(user).where(eq(user.id, account.id)).returning({ id: user.id })) : 0,
    };
    return { erased: true, counts };
  });
}
