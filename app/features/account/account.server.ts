import { desc, eq, sql } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import {
  customers,
  invoices,
  memberships,
  orderEvents,
  orders,
  refunds,
  type CurrencyCode,
  type MembershipPlan,
} from "~/db/schema";
import { AUTHENTICATION_REQUIRED } from "~/features/memberships/fee-outcomes.server";
import type { MembershipStatus } from "~/features/memberships/membership-status";
import type { OrderStatus } from "~/features/booking/order-status";

export interface AccountMembership {
  id: string;
  plan: MembershipPlan;
  status: MembershipStatus;
  /** The fee per quarter, minor units of `currency`. */
  price: number;
  currency: CurrencyCode;
  trialEndsAt: Date;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  cancelAtPeriodEnd: boolean;
  /** A cheaper plan the membership moves to when its paid quarter ends (ADR 030). */
  scheduledPlan: MembershipPlan | null;
  graceEndsAt: Date | null;
  endedAt: Date | null;
  cardBrand: string;
  cardLast4: string;
  /** Billed by the provider (a Stripe subscription): its card and open fee are the provider's to handle. */
  providerBilled: boolean;
  /** Its unpaid fee is held by the bank until the member confirms it (3-D Secure). */
  awaitsConfirmation: boolean;
  createdAt: Date;
}

export interface AccountOrder {
  id: string;
  orderNumber: string;
  status: OrderStatus;
  amount: number;
  currency: CurrencyCode;
  airport: string | null;
  flightDate: string | null;
  adults: number;
  children: number;
  voucherShortCode: string | null;
  /** Its invoice's number once paid (ADR 028). */
  invoiceNumber: string | null;
  /** Refunded so far (made or on their way), minor units of `currency`. */
  refunded: number;
  /** When it was paid (its confirmation e-mail): the withdrawal period runs from then. */
  paidAt: Date | null;
  /** Whether its payment started the address's membership, which a withdrawal may end too. */
  startedMembership: boolean;
  createdAt: Date;
}

/** How many of an address's orders the account lists, newest first. */
export const ACCOUNT_ORDERS_SHOWN = 50;

/**
 * What the member area shows the signed-in address: its membership, if it ever had one, and its
 * orders, newest first. Both are found by the address (one customer per address, ADR 027), so a
 * person sees what they booked as a guest too, and nothing of anyone else.
 */
export async function accountOverview(
  db: Database,
  email: string,
): Promise<{ membership: AccountMembership | null; orders: AccountOrder[] }> {
  const address = email.trim().toLowerCase();
  const [membershipRows, orderRows] = await Promise.all([
    db
      .select({
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
        providerBilled: sql<boolean>`${memberships.providerSubscriptionRef} is not null`,
        // Qualified by hand: in a one-table select, drizzle writes a bare "id", which the subquery would read as the invoice's.
        awaitsConfirmation: sql<boolean>`exists (select 1 from ${invoices}
          where ${invoices.membershipId} = ${sql.identifier("memberships")}.${sql.identifier("id")}
          and ${invoices.status} = 'open' and ${invoices.lastOutcome} = ${AUTHENTICATION_REQUIRED})`,
        createdAt: memberships.createdAt,
      })
      .from(memberships)
      .where(eq(memberships.email, address)),
    db
      .select({
        id: orders.id,
        orderNumber: orders.orderNumber,
        status: orders.status,
        amount: orders.amount,
        currency: orders.currency,
        airport: orders.airport,
        flightDate: orders.flightDate,
        adults: orders.adults,
        children: orders.children,
        voucherShortCode: orders.voucherShortCode,
        invoiceNumber: orders.invoiceNumber,
        refunded: sql<number>`(select coalesce(sum(${refunds.amount}), 0)::integer from ${refunds}
          where ${refunds.orderId} = ${orders.id})`,
        paidAt: sql<Date | null>`(select min(${orderEvents.createdAt}) from ${orderEvents}
          where ${orderEvents.orderId} = ${orders.id} and ${orderEvents.toStatus} = 'paid')`.mapWith(
          (value: string | Date | null) => (value === null ? null : new Date(value)),
        ),
        startedMembership: sql<boolean>`exists (select 1 from ${memberships} where ${memberships.orderId} = ${orders.id})`,
        createdAt: orders.createdAt,
      })
      .from(orders)
      .innerJoin(customers, eq(customers.id, orders.customerId))
      .where(eq(customers.email, address))
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(ACCOUNT_ORDERS_SHOWN),
  ]);
  return { membership: membershipRows[0] ?? null, orders: orderRows };
}
