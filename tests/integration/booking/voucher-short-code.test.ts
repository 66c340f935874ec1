import { and, eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { orderEvents, orders } from "~/db/schema";
import { changeOrderStatus } from "~/features/booking/order-status.server";
import { createBooking } from "~/features/booking/orders.server";
import type * as codes from "~/features/booking/voucher-short-code";
import { CUSTOMER_ACTOR } from "~/lib/actor";
import { bookingInput, bookingTestDatabase } from "../../support/integration/booking-helpers";
import { testDatabaseKind } from "../../support/test-database";

// The draw is the only thing replaced: the unique index that refuses a taken code is the database's own.
const drawn = vi.hoisted(() => ({ codes: [] as string[] }));

vi.mock("~/features/booking/voucher-short-code", async (original) => {
  const module = await original<typeof codes>();
  return { ...module, newVoucherShortCode: () => drawn.codes.shift() ?? module.newVoucherShortCode() };
});

const db = bookingTestDatabase();

async function newOrder() {
  const { orderId } = await createBooking(db(), { booking: bookingInput(), currency: "EUR", userId: null });
  return orderId;
}

async function orderRow(orderId: string) {
  const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
  return order!;
}

async function paidOrder() {
  const orderId = await newOrder();
  await changeOrderStatus(db(), { orderId, to: "paid", actor: CUSTOMER_ACTOR });
  return (await orderRow(orderId)).voucherShortCode;
}

describe(`the voucher short code on ${testDatabaseKind()}`, () => {
  it("passes over a drawn code that another order has, and gives the next one", async () => {
    drawn.codes = ["K7QM-3XPA-TW", "K7QM-3XPA-TW", "9Z0B-C2D4-E5"];
    expect(await paidOrder()).toBe("K7QM-3XPA-TW");
    drawn.codes = ["K7QM-3XPA-TW", "9Z0B-C2D4-E5"];
    expect(await paidOrder()).toBe("9Z0B-C2D4-E5");
  });

  it("leaves the order unpaid when every drawn code is taken, rather than paid without a code", async () => {
    drawn.codes = ["H8RW-4YNB-VX"];
    expect(await paidOrder()).toBe("H8RW-4YNB-VX");

    const orderId = await newOrder();
    drawn.codes = Array.from({ length: 5 }, () => "H8RW-4YNB-VX");
    await expect(changeOrderStatus(db(), { orderId, to: "paid", actor: CUSTOMER_ACTOR })).rejects.toThrow();

    expect(drawn.codes).toEqual([]);
    expect(await orderRow(orderId)).toMatchObject({ status: "not_paid", voucherShortCode: null });
    const paid = await db()
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.toStatus, "paid")));
    expect(paid).toEqual([]);
  });
});
