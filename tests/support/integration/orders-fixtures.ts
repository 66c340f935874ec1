import { randomUUID } from "node:crypto";
import type { Database } from "~/db/client.server";
import { customers, orders, refunds, type CurrencyCode, type OrderStatus, type RefundStatus } from "~/db/schema";

export async function insertCustomer(
  db: Database,
  fullName = "Ada Lovelace",
  email: string | null = null,
  createdAt?: Date,
) {
  const [customer] = await db.insert(customers).values({ fullName, email, createdAt }).returning();
  return customer!;
}

interface OrderFixture {
  customerId: string;
  amount: number;
  status?: OrderStatus;
  currency?: CurrencyCode;
  createdAt?: Date;
  airport?: string;
}

export async function insertOrder(
  db: Database,
  { customerId, amount, status = "not_paid", currency = "EUR", createdAt, airport }: OrderFixture,
) {
  const [order] = await db
    .insert(orders)
    .values({
      orderNumber: `FT-${Date.now()}-${randomUUID().slice(0, 8).toUpperCase()}`,
      customerId,
      amount,
      currency,
      status,
      serviceType: "Fast Track",
      business: "Fast Track",
      site: "Test site",
      idempotencyKey: randomUUID(),
      adults: 1,
      airport,
      createdAt,
      updatedAt: createdAt,
    })
    .returning();
  return order!;
}

/** A refund of an order or an invoice as the refund code records it: 'done' by default, made at `createdAt`. */
export async function insertRefund(
  db: Database,
  {
    amount,
    currency,
    status = "done",
    createdAt,
    ...target
  }: ({ orderId: string } | { invoiceId: string }) & {
    amount: number;
    currency: CurrencyCode;
    status?: RefundStatus;
    createdAt?: Date;
  },
) {
  const [refund] = await db
    .insert(refunds)
    .values({
      ...target,
      amount,
      currency,
      status,
      reason: "Test refund",
      idempotencyKey: randomUUID(),
      providerRef: status === "done" ? `re_${randomUUID()}` : null,
      actorLabel: "admin@example.com",
      createdAt,
    })
    .returning();
  return refund!;
}
