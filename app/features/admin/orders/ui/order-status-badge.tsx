import { StatusBadge } from "~/components/ui/status-badge";
import { isPaidStatus, orderStatusLabel } from "~/features/booking/order-status";

/** The order's status in French: green once paid or completed, yellow otherwise. */
export function OrderStatusBadge({ status }: { status: string }) {
  return <StatusBadge tone={isPaidStatus(status) ? "good" : "pending"}>{orderStatusLabel(status)}</StatusBadge>;
}
