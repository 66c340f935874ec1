import { and, eq, sql, type SQL } from "drizzle-orm";
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
    await executePrepared(tx, sql`with ${orderStatusWrite(tx, { id: orderId, ...order }, change)} select`);
    return { from: order.status, to: change.to };
  });
}

/**
 * `changeOrderStatus` as the parts of a `with` list, for a statement that has locked the order and
 * read its status under that lock (a payment's): the transition is checked, the change written,
 * nothing read again, and only if the relation `when` has a row. The parts are `changed_order`
 * (`returning *`), the history row, and what `alongside` adds. Writing "paid" draws the invoice
 * number at the commit, which holds the yearly series until the transaction ends (ADR 028).
 */
export function orderStatusWrite(
  db: Database,
  order: { id: string; status: OrderStatus; amount: number },
  { to, actor, note, alongside }: StatusChange,
  when?: SQL,
): SQL {
  if (!orderTransitions(order).includes(to)) throw new OrderTransitionError("An order", order.status, to);
  const changed = sql`${sql.identifier("changed_order")}`;
  // However it gets paid (by card, or by an admin), a paid order has a code to read out at the lane.
  const write = db
    .update(orders)
    .set({ status: to, ...(to === "paid" && { voucherShortCode: voucherShortCodeToGive() }) })
    .where(when ? and(eq(orders.id, order.id), sql`exists (select from ${when})`) : eq(orders.id, order.id))
    .returning();
  const event = sql`insert into ${orderEvents} (order_id, from_status, to_status, actor_user_id, actor_label, note)
    select id, ${order.status}::text, ${to}::text, ${actor.userId}::text, ${actor.label}::text, ${note ?? null}::text
    from ${changed}`;
  return sql`${changed} as ${write}, ${sql.identifier("order_event")} as (${event})${
    alongside ? sql`, ${sql.identifier("status_alongside")} as (${alongside(changed)})` : sql``
  }`;
}
