import { and, eq, inArray, isNotNull, isNull, not, notExists, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { customers, memberships, orderEvents, orders, payments } from "~/db/schema";

// The two ways customer data leaves the database, shared by the retention job and by erasure
// requests (ADR 008): an order that holds no money is deleted; a customer whose orders or
// membership are accounting records is anonymised, so that the orders, payments, invoices and
// refunds stay but name no one.

/** What an anonymised customer is called: the admin pages show it in place of the name. */
export const ANONYMISED_CUSTOMER_NAME = "Client anonymisé";

/** True for a customer row that names no one any more. */
export const isAnonymisedCustomer = and(
  eq(customers.fullName, ANONYMISED_CUSTOMER_NAME),
  isNull(customers.notes),
  isNull(customers.email),
  isNull(customers.userId),
)!;

export interface UnpaidOrderRemoval {
  orders: number;
  orderEvents: number;
  /** Declined card attempts: brand and last 4 digits, no money moved. */
  paymentAttempts: number;
}

/**
 * Deletes those of these orders that are still 'not_paid', with their history and their declined
 * payment attempts. An order in any other status is left alone, whoever asks.
 */
export async function deleteUnpaidOrders(db: Database, orderIds: string[]): Promise<UnpaidOrderRemoval> {
  if (orderIds.length === 0) return { orders: 0, orderEvents: 0, paymentAttempts: 0 };
  const unpaid = db
    .select({ id: orders.id })
    .from(orders)
    .where(and(inArray(orders.id, orderIds), eq(orders.status, "not_paid")));
  const paymentAttempts = await db
    .delete(payments)
    .where(inArray(payments.orderId, unpaid))
    .returning({ id: payments.id });
  const events = await db
    .delete(orderEvents)
    .where(inArray(orderEvents.orderId, unpaid))
    .returning({ id: orderEvents.id });
  const deleted = await db
    .delete(orders)
    .where(and(inArray(orders.id, orderIds), eq(orders.status, "not_paid")))
    .returning({ id: orders.id });
  return { orders: deleted.length, orderEvents: events.length, paymentAttempts: paymentAttempts.length };
}

/**
 * Deletes those of these customers that have no order left and no membership (whose invoices are
 * accounting records: such a customer is anonymised instead). Returns how many.
 */
export async function deleteCustomersWithoutOrders(db: Database, customerIds: string[]): Promise<number> {
  if (customerIds.length === 0) return 0;
  const deleted = await db
    .delete(customers)
    .where(
      and(
        inArray(customers.id, customerIds),
        notExists(
          db
            .select({ one: sql`1` })
            .from(orders)
            .where(eq(orders.customerId, customers.id)),
        ),
        notExists(
          db
            .select({ one: sql`1` })
            .from(memberships)
            .where(eq(memberships.customerId, customers.id)),
        ),
      ),
    )
    .returning({ id: customers.id });
  return deleted.length;
}

/**
 * Replaces the name and notes (airport, flight date, e-mail, phone) of these customers, unlinks
 * their account and clears the address of their memberships; their orders, payments, memberships,
 * invoices and refunds stay, as accounting records. Returns how many customers changed.
 */
export async function anonymiseCustomers(db: Database, customerIds: string[]): Promise<number> {
  if (customerIds.length === 0) return 0;
  await db
    .update(memberships)
    .set({ email: null })
    .where(and(inArray(memberships.customerId, customerIds), isNotNull(memberships.email)));
  const changed = await db
    .update(customers)
    .set({ fullName: ANONYMISED_CUSTOMER_NAME, email: null, notes: null, userId: null })
    .where(and(inArray(customers.id, customerIds), not(isAnonymisedCustomer)))
    .returning({ id: customers.id });
  return changed.length;
}

/** The customers' unpaid orders deleted, then each customer deleted if nothing is left, else anonymised. */
export async function eraseCustomers(db: Database, customerIds: string[]) {
  const unpaid = customerIds.length
    ? await db
        .select({ id: orders.id })
        .from(orders)
        .where(and(inArray(orders.customerId, customerIds), eq(orders.status, "not_paid")))
        .for("update")
    : [];
  const removedOrders = await deleteUnpaidOrders(
    db,
    unpaid.map((order) => order.id),
  );
  const customersDeleted = await deleteCustomersWithoutOrders(db, customerIds);
  const customersAnonymised = await anonymiseCustomers(db, customerIds);
  return { ...removedOrders, customersDeleted, customersAnonymised };
}
