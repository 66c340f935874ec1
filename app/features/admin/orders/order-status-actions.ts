import { z } from "~/lib/zod";
import type { OrderStatus } from "~/db/schema";
import { orderTransitions } from "~/features/booking/order-status";

/**
 * The status changes the back office offers, with their buttons. 'paid' and 'refunded' are not
 * among them: only a payment makes an order paid, and only a refund through the gateway makes it
 * refunded, so that the status always has the money behind it.
 */
export const ADMIN_STATUS_ACTIONS = {
  completed: "Marquer terminée",
  cancelled: "Annuler la commande",
} as const satisfies Partial<Record<OrderStatus, string>>;

export type AdminTargetStatus = keyof typeof ADMIN_STATUS_ACTIONS;

const ADMIN_TARGETS = Object.keys(ADMIN_STATUS_ACTIONS) as AdminTargetStatus[];

/** The changes an admin may make to the order, as the state machine allows them. */
export function adminTransitionsFrom(order: { status: OrderStatus; amount: number }): AdminTargetStatus[] {
  return ADMIN_TARGETS.filter((target) => orderTransitions(order).includes(target));
}

export const MAX_NOTE_LENGTH = 500;

export const orderStatusChangeSchema = z.object({
  to: z.enum(ADMIN_TARGETS as [AdminTargetStatus, ...AdminTargetStatus[]], { error: "Changement de statut inconnu." }),
  note: z
    .string()
    .trim()
    .max(MAX_NOTE_LENGTH, `La note ne peut pas dépasser ${MAX_NOTE_LENGTH} caractères.`)
    .optional()
    .transform((note) => note || undefined),
});
