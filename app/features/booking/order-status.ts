import type { OrderStatus } from "~/db/schema";

export type { OrderStatus };

/**
 * The order state machine: the only status changes there are. An order is created 'not_paid'; a
 * payment makes it paid; it is then completed (the service was used) or refunded, and a completed
 * order may still be refunded (an overcharge found later). An unpaid order may be cancelled.
 * Everything else is refused. Only a refund through the gateway makes an order refunded.
 */
export const ORDER_TRANSITIONS: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  not_paid: ["paid", "cancelled"],
  paid: ["completed", "refunded"],
  completed: ["refunded"],
  cancelled: [],
  refunded: [],
};

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return ORDER_TRANSITIONS[from].includes(to);
}

/**
 * The changes this order may make: the state machine's, and, for a paid order that cost nothing
 * (a member's free accesses, ADR 029), a cancellation, since there is no money a refund would return.
 */
export function orderTransitions({ status, amount }: { status: OrderStatus; amount: number }): readonly OrderStatus[] {
  return status === "paid" && amount === 0 ? [...ORDER_TRANSITIONS.paid, "cancelled"] : ORDER_TRANSITIONS[status];
}

/** Orders that were paid for: a completed order was paid first. They alone count as revenue. */
export const PAID_ORDER_STATUSES = ["paid", "completed"] as const satisfies readonly OrderStatus[];

export function isPaidStatus(status: string): boolean {
  return (PAID_ORDER_STATUSES as readonly string[]).includes(status);
}

/** Orders whose payment was taken and not called off: what is left of it may be refunded. */
export const CHARGED_ORDER_STATUSES = ["paid", "completed", "refunded"] as const satisfies readonly OrderStatus[];

export function wasCharged(status: string): boolean {
  return (CHARGED_ORDER_STATUSES as readonly string[]).includes(status);
}

const FRENCH_LABELS: Record<OrderStatus, string> = {
  not_paid: "Non payée",
  paid: "Payée",
  completed: "Terminée",
  cancelled: "Annulée",
  refunded: "Remboursée",
};

/** The status as the back office shows it, in French. */
export function orderStatusLabel(status: string): string {
  return FRENCH_LABELS[status as OrderStatus] ?? status;
}

const ENGLISH_LABELS: Record<OrderStatus, string> = {
  not_paid: "Not Paid",
  paid: "Paid",
  completed: "Completed",
  cancelled: "Cancelled",
  refunded: "Refunded",
};

/** The status as the customer's pages show it, in capitals: "NOT PAID", "PAID" (spec §2). */
export function customerOrderStatus(status: OrderStatus): string {
  return ENGLISH_LABELS[status].toUpperCase();
}
