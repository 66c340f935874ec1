import { eq, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { executePrepared } from "~/db/prepared-statement.server";
import { orderEvents, orders } from "~/db/schema";
import type { Actor } from "~/lib/actor";
import { StatusTransitionError } from "~/lib/status-transition";
import { orderTransitions, type OrderStatus } from "./order-status";
import { voucherShortCodeToGive } from "./voucher-short-code.server";

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
 * The status, the voucher code and the history row are one statement, the transaction's last:
 * writing "paid" draws the invoice number, whose yearly series stays locked until the transaction
 * ends (ADR 028), so every other payment waits from that statement to the commit.
 */
export async function writeOrderStatus(
  tx: Database,
  order: { id: string; status: OrderStatus; amount: number },
  { to, actor, note, alongside }: StatusChange,
) {
  if (!orderTransitions(order).includes(to)) throw new OrderTransitionError("An order", order.status, to);
  const changed = sql`${sql.identifier("changed_order")}`;
  // However it gets paid (by card, or by an admin), a paid order has a code to read out at the lane.
  const write = tx
    .update(orders)
    .set({ status: to, ...(to === "paid" && { voucherShortCode: voucherShortCodeToGive() }) })
    .where(eq(orders.id, order.id))
    .returning();
  const event = sql`insert into ${orderEvents} (order_id, from_status, to_status, actor_user_id, actor_label, note)
    select id, ${order.status}::text, ${to}::text, ${actor.userId}::text, ${actor.label}::text, ${note ?? null}::text
    from ${changed}`;
  await executePrepared(
    tx,
    alongside
      ? sql`with ${changed} as ${write}, ${sql.identifier("order_event")} as (${event}) ${alongside(changed)}`
      : sql`with ${changed} as ${write} ${event}`,
  );
}
