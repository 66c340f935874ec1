import type { OrderStatus } from "~/db/schema";

export type { OrderStatus };

/**
 * The order state machine: the only status changes there are. An order is created 'Not Paid'; a
 * payment makes it paid; it is then completed (the service was used) or refunded. An unpaid order
 * may be cancelled. Everything else is refused.
 */
export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  "Not Paid": ["paid", "cancelled"],
  paid: ["completed", "refunded"],
  completed: [],
  cancelled: [],
  refunded: [],
};

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return ORDER_TRANSITIONS[from].includes(to);
}

/** Paid and completed orders are confirmed revenue. */
export function isPaidStatus(status: OrderStatus): boolean {
  return status === "paid" || status === "completed";
}
