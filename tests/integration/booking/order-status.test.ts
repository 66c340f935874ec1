import { asc, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ORDER_STATUSES, orderEvents, orders, user, type OrderStatus } from "~/db/schema";
import { createBooking } from "~/features/booking/orders.server";
import { CUSTOMER_ACTOR } from "~/lib/actor";
import { OrderNotFoundError, OrderTransitionError, changeOrderStatus } from "~/features/booking/order-status.server";
import { bookingInput, bookingTestDatabase } from "../../support/integration/booking-helpers";
import { testDatabaseKind } from "../../support/test-database";

const db = bookingTestDatabase();

beforeAll(async () => {
  await db().insert(user).values({ id: "admin-1", name: "Admin", email: "admin@example.com" });
});

const ALLOWED = new Set([
  "not_paid -> paid",
  "not_paid -> cancelled",
  "paid -> completed",
  "paid -> refunded",
  "completed -> refunded",
]);

/** The allowed steps that lead from 'not_paid' to each status. */
const PATH_TO: Record<OrderStatus, OrderStatus[]> = {
  not_paid: [],
  paid: ["paid"],
  completed: ["paid", "completed"],
  cancelled: ["cancelled"],
  refunded: ["paid", "refunded"],
};

const admin = { userId: "admin-1", label: "admin@example.com" };

async function orderIn(status: OrderStatus) {
  const { orderId } = await createBooking(db(), { booking: bookingInput(), currency: "EUR", userId: null });
  for (const step of PATH_TO[status]) await changeOrderStatus(db(), { orderId, to: step, actor: admin });
  return orderId;
}

async function statusOf(orderId: string) {
  const [order] = await db().select({ status: orders.status }).from(orders).where(eq(orders.id, orderId));
  return order!.status;
}

async function historyOf(orderId: string) {
  return db()
    .select({
      from: orderEvents.fromStatus,
      to: orderEvents.toStatus,
      actorUserId: orderEvents.actorUserId,
      actorLabel: orderEvents.actorLabel,
      note: orderEvents.note,
    })
    .from(orderEvents)
    .where(eq(orderEvents.orderId, orderId))
    .orderBy(asc(orderEvents.createdAt));
}

describe(`order status changes on ${testDatabaseKind()}`, () => {
  const pairs = ORDER_STATUSES.flatMap((from) => ORDER_STATUSES.map((to) => [from, to] as const));

  it.each(pairs.filter(([from, to]) => ALLOWED.has(`${from} -> ${to}`)))(
    "allows %s -> %s and records it",
    async (from, to) => {
      const orderId = await orderIn(from);
      const before = (await historyOf(orderId)).length;
      await expect(changeOrderStatus(db(), { orderId, to, actor: admin, note: "checked by hand" })).resolves.toEqual({
        from,
        to,
      });
      expect(await statusOf(orderId)).toBe(to);
      const history = await historyOf(orderId);
      expect(history).toHaveLength(before + 1);
      expect(history.at(-1)).toEqual({
        from,
        to,
        actorUserId: "admin-1",
        actorLabel: "admin@example.com",
        note: "checked by hand",
      });
    },
  );

  it.each(pairs.filter(([from, to]) => !ALLOWED.has(`${from} -> ${to}`)))(
    "refuses %s -> %s and changes nothing",
    async (from, to) => {
      const orderId = await orderIn(from);
      const before = await historyOf(orderId);
      const attempt = changeOrderStatus(db(), { orderId, to, actor: CUSTOMER_ACTOR });
      await expect(attempt).rejects.toThrow(OrderTransitionError);
      await expect(attempt).rejects.toThrow(`An order cannot go from '${from}' to '${to}'.`);
      expect(await statusOf(orderId)).toBe(from);
      expect(await historyOf(orderId)).toEqual(before);
    },
  );

  it("starts every order's history with its creation, then each change in order", async () => {
    const orderId = await orderIn("completed");
    expect((await historyOf(orderId)).map(({ from, to }) => `${from ?? "(new)"} -> ${to}`)).toEqual([
      "(new) -> not_paid",
      "not_paid -> paid",
      "paid -> completed",
    ]);
  });

  it("refuses to change an order that does not exist", async () => {
    await expect(
      changeOrderStatus(db(), {
        orderId: "00000000-0000-4000-8000-000000000000",
        to: "paid",
        actor: CUSTOMER_ACTOR,
      }),
    ).rejects.toThrow(OrderNotFoundError);
  });

  it("lets only one of two concurrent changes from the same status win", async () => {
    const orderId = await orderIn("not_paid");
    const results = await Promise.allSettled([
      changeOrderStatus(db(), { orderId, to: "paid", actor: CUSTOMER_ACTOR }),
      changeOrderStatus(db(), { orderId, to: "cancelled", actor: admin }),
    ]);
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect(results.filter((result) => result.status === "rejected")).toHaveLength(1);
    expect(await historyOf(orderId)).toHaveLength(2);
  });
});
