import { randomUUID } from "node:crypto";
import type { Database } from "~/db/client.server";
import { customers, orders, type CurrencyCode, type OrderStatus } from "~/db/schema";

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
