import { and, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { orderEvents, orders } from "~/db/schema";
import { changeOrderStatus } from "~/features/booking/order-status.server";
import { createBooking } from "~/features/booking/orders.server";
import * as voucherShortCodes from "~/features/booking/voucher-short-code";
import { bookingInput, bookingTestDatabase } from "../../support/integration/booking-helpers";
import { testDatabaseKind } from "../../support/test-database";

// The draw is the only thing replaced: the unique index that refuses a taken code is the database's own.
const draws = vi.hoisted(() => ({ next: [] as string[] }));
vi.mock("~/features/booking/voucher-short-code", async (original) => {
  const real = await original<typeof voucherShortCodes>();
  return { ...real, newVoucherShortCode: () => draws.next.shift() ?? real.newVoucherShortCode() };
});

const db = bookingTestDatabase();
const admin = { userId: null, label: "admin@example.org" };

async function newOrder() {
  const { orderId } = await createBooking(db(), { booking: bookingInput(), currency: "EUR", userId: null });
  return orderId;
}

async function orderRow(orderId: string) {
  const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
  return order!;
}

const paymentsInHistory = (orderId: string) =>
  db()
    .select()
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.toStatus, "paid")));

describe(`the voucher's short code, drawn when an order is paid, on ${testDatabaseKind()}`, () => {
  it("draws again when the code is another order's, without undoing the payment around it", async () => {
    const first = await newOrder();
    await changeOrderStatus(db(), { orderId: first, to: "paid", actor: admin });
    const taken = (await orderRow(first)).voucherShortCode!;

    const second = await newOrder();
    const fresh = voucherShortCodes.newVoucherShortCode();
    draws.next = [taken, taken, fresh];
    await changeOrderStatus(db(), { orderId: second, to: "paid", actor: admin });

    expect(draws.next).toEqual([]);
    expect(await orderRow(second)).toMatchObject({ status: "paid", voucherShortCode: fresh });
    expect(await paymentsInHistory(second)).toMatchObject([{ fromStatus: "not_paid", actorLabel: admin.label }]);
    expect((await orderRow(first)).voucherShortCode).toBe(taken);
  });

  it("gives up after five taken codes, and the order stays unpaid with no payment in its history", async () => {
    const first = await newOrder();
    await changeOrderStatus(db(), { orderId: first, to: "paid", actor: admin });
    const taken = (await orderRow(first)).voucherShortCode!;

    const second = await newOrder();
    draws.next = Array.from({ length: 5 }, () => taken);
    await expect(changeOrderStatus(db(), { orderId: second, to: "paid", actor: admin })).rejects.toThrow();

    expect(draws.next).toEqual([]);
    expect(await orderRow(second)).toMatchObject({ status: "not_paid", voucherShortCode: null });
    expect(await paymentsInHistory(second)).toEqual([]);
  });
});
