import { eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { orderEvents, orders } from "~/db/schema";
import type { Actor } from "~/lib/actor";
import { StatusTransitionError } from "~/lib/status-transition";
import { orderTransitions, type OrderStatus } from "./order-status";
import { giveVoucherShortCode } from "./voucher-short-code.server";

export class OrderTransitionError extends StatusTransitionError<OrderStatus> {
  override name = "OrderTransitionError";
}

export class OrderNotFoundError extends Error {
  override name = "OrderNotFoundError";
}

/**
 * The one way an order's status changes: the row is locked, the transition checked against the
 * state machine (order-status.ts), the change recorded in order_events and the status written, all
 * or nothing. Pass a transaction to make the change part of a larger one.
 *
 * The status is written last: writing "paid" draws the invoice number, whose yearly series stays
 * locked until the transaction ends (ADR 028), so every other payment waits from that statement to
 * the commit. `alongside` is a statement that must see the order as written (its invoice number),
 * run in the same statement as the write, where `changed_order` names the row (`returning *`).
 */
export async function changeOrderStatus(
  db: Database,
  {
    orderId,
    to,
    actor,
    note,
    alongside,
  }: { orderId: string; to: OrderStatus; actor: Actor; note?: string; alongside?: (changedOrder: SQL) => SQL },
): Promise<{ from: OrderStatus; to: OrderStatus }> {
  return db.transaction(async (tx) => {
    const [order] = await tx
      .select({ status: orders.status, amount: orders.amount })
      .from(orders)
      .where(eq(orders.id, orderId))
      .for("update");
    if (!order) throw new OrderNotFoundError(`No order ${orderId}`);
    if (!orderTransitions(order).includes(to)) throw new OrderTransitionError("An order", order.status, to);
    // However it gets paid (by card, or by an admin), a paid order has a code to read out at the lane.
    if (to === "paid") await giveVoucherShortCode(tx, orderId);
    await tx.insert(orderEvents).values({
      orderId,
      fromStatus: order.status,
      toStatus: to,
      actorUserId: actor.userId,
      actorLabel: actor.label,
      note,
    });
    const write = tx.update(orders).set({ status: to }).where(eq(orders.id, orderId));
    if (alongside) {
      const changed = sql`${sql.identifier("changed_order")}`;
      await tx.execute(sql`with ${changed} as ${write.returning()} ${alongside(changed)}`);
    } else {
      await write;
    }
    return { from: order.status, to };
  });
}
