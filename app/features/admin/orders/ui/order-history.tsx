import type { BackOfficeOrder } from "~/features/admin/orders/order-details.server";
import { orderStatusLabel } from "~/features/booking/order-status";
import { StatusHistory } from "../../ui/status-history";

/** The order's status changes, newest first, each with who made it and why. */
export function OrderHistory({ events }: { events: BackOfficeOrder["history"] }) {
  return <StatusHistory events={events} statusLabel={orderStatusLabel} created="Commande créée" />;
}
