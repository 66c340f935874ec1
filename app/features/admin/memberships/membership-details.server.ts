import { randomUUID } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { customers, invoices, memberships, orders } from "~/db/schema";
import { membershipHistory } from "~/db/status-history.server";
import { isAnonymisedCustomer } from "~/features/privacy/customer-removal.server";
import { listRefunds } from "~/features/payments/refunds.server";
import { isUuid } from "~/lib/uuid";

/** A membership with everything the back office shows about it, or null when there is no such membership. */
export async function findMembershipDetails(db: Database, membershipId: string) {
  if (!isUuid(membershipId)) return null;
  const [found] = await db
    .select({
      membership: {
        id: memberships.id,
        plan: memberships.plan,
        status: memberships.status,
        price: memberships.price,
        currency: memberships.currency,
        trialEndsAt: memberships.trialEndsAt,
        currentPeriodStart: memberships.currentPeriodStart,
        currentPeriodEnd: memberships.currentPeriodEnd,
        cancelAtPeriodEnd: memberships.cancelAtPeriodEnd,
        scheduledPlan: memberships.scheduledPlan,
        graceEndsAt: memberships.graceEndsAt,
        endedAt: memberships.endedAt,
        cardBrand: memberships.cardBrand,
        cardLast4: memberships.cardLast4,
        providerSubscriptionRef: memberships.providerSubscriptionRef,
        createdAt: memberships.createdAt,
      },
      customer: {
        id: customers.id,
        name: customers.fullName,
        email: customers.email,
        anonymised: sql<boolean>`${isAnonymisedCustomer}`,
      },
      // The order that started it; null once that order is deleted.
      order: { id: orders.id, orderNumber: orders.orderNumber },
    })
    .from(memberships)
    .innerJoin(customers, eq(customers.id, memberships.customerId))
    .leftJoin(orders, eq(orders.id, memberships.orderId))
    .where(eq(memberships.id, membershipId));
  if (!found) return null;
  const [invoiceRows, history] = await Promise.all([
    db
      .select({
        id: invoices.id,
        periodStart: invoices.periodStart,
        periodEnd: invoices.periodEnd,
        amount: invoices.amount,
        currency: invoices.currency,
        status: invoices.status,
        attempts: invoices.attempts,
        paidAt: invoices.paidAt,
        providerRef: invoices.providerRef,
      })
      .from(invoices)
      .where(eq(invoices.membershipId, membershipId))
      .orderBy(desc(invoices.periodStart)),
    membershipHistory(db, membershipId),
  ]);
  const invoiceRefunds = await listRefunds(db, { invoiceIds: invoiceRows.map((invoice) => invoice.id) });
  return {
    ...found,
    invoices: invoiceRows.map(({ providerRef, ...invoice }) => {
      const refunded = invoiceRefunds
        .filter((refund) => refund.invoiceId === invoice.id)
        .reduce((total, refund) => total + refund.amount, 0);
      // What refundInvoice would still give back: a charged invoice, less what was refunded.
      const charged = providerRef !== null && (invoice.status === "paid" || invoice.status === "refunded");
      return { ...invoice, refunded, refundable: charged ? invoice.amount - refunded : 0 };
    }),
    refunds: invoiceRefunds,
    history,
  };
}

export type MembershipDetails = NonNullable<Awaited<ReturnType<typeof findMembershipDetails>>>;

/** One of this membership's invoices (its id, amount and currency), or null when it has no such invoice. */
export async function findInvoiceOf(db: Database, membershipId: string, invoiceId: string) {
  if (!isUuid(invoiceId)) return null;
  const [found] = await db
    .select({ id: invoices.id, amount: invoices.amount, currency: invoices.currency })
    .from(invoices)
    .where(and(eq(invoices.id, invoiceId), eq(invoices.membershipId, membershipId)));
  return found ?? null;
}

/** A fresh idempotency key for each invoice that can still be refunded: a second click on one form refunds nothing more. */
export function refundKeys(details: MembershipDetails): Record<string, string> {
  return Object.fromEntries(
    details.invoices.filter((invoice) => invoice.refundable > 0).map((invoice) => [invoice.id, randomUUID()]),
  );
}
