import type { OrderStatus } from "~/db/schema";

/** The statuses counted as confirmed revenue (and shown green); every other one is shown yellow. */
export const CONFIRMED_ORDER_STATUSES = ["paid", "completed"] as const satisfies readonly OrderStatus[];

export function isConfirmedStatus(status: string): boolean {
  return (CONFIRMED_ORDER_STATUSES as readonly string[]).includes(status);
}

const FRENCH_LABELS: Record<OrderStatus, string> = {
  "Not Paid": "Non payée",
  paid: "Payée",
  completed: "Terminée",
  cancelled: "Annulée",
  refunded: "Remboursée",
};

export function orderStatusLabel(status: string): string {
  return FRENCH_LABELS[status as OrderStatus] ?? status;
}
