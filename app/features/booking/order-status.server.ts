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

/** A change of an order's status: to what, by whom, why, and a statement to run with it. */
interface StatusChange {
  to: OrderStatus;
  actor: Actor;
  note?: string;
  /**
   * A statement that must see the order as written (its invoice number), run in the same statement
   * as the write, where `changed_order` names the row (`returning *`).
   */
  alongside?: (changedOrder: SQL) => SQL;
}

/**
 * The one way an order's status changes: the row is locked, the transition checked against the
 * state machine (order-status.ts), the change recorded in order_events and the status written, all
 * or nothing. Pass a transaction to make the change part of a larger one.
 */
export async function changeOrderStatus(
  db: Database,
  { orderId, ...change }: StatusChange & { orderId: string },
): Promise<{ from: OrderStatus; to: OrderStatus }> {
  return db.transaction(async (tx) => {
    const [order] = await tx
      .select({ status: orders.status, amount: orders.amount })
      .from(orders)
      .where(eq(orders.id, orderId))
      .for("update");
    if (!order) throw new OrderNotFoundError(`No order ${orderId}`);
    await writeOrderStatus(tx, { id: orderId, ...order }, change);
    return { from: order.status, to: change.to };
  });
}

/**
 * `changeOrderStatus` inside a transaction that has locked the order already and read its status
 * under that lock (a payment's): the transition is checked, the change written, nothing read again.
 *
 * The status is written last: writing "paid" draws the invoice number, whose yearly series stays
 * locked until the transaction ends (ADR 028), so every other payment waits from that statement to
 * the commit.
 */
export async function writeOrderStatus(
  tx: Database,
  order: { id: string; status: OrderStatus; amount: number },
  { to, actor, note, alongside }: StatusChange,
) {
  if (!orderTransitions(order).includes(to)) throw new OrderTransitionError("An order", order.status, to);
  // However it gets paid (by card, or by an admin), a paid order has a code to read out at the lane.
  if (to === "paid") await giveVoucherShortCode(tx, order.id);
  await tx.insert(orderEvents).values({
    orderId: order.id,
    fromStatus: order.status,
    toStatus: to,
    actorUserId: actor.userId,
    actorLabel: actor.label,
    note,
  });
  const write = tx.update(orders).set({ status: to }).where(eq(orders.id, order.id));
  if (alongside) {
    const changed = sql`${sql.identifier("changed_order")}`;
    await tx.execute(sql`with ${changed} as ${write.returning()} ${alongside(changed)}`);
  } else {
    await write;
  }
}
