import { cn } from "~/lib/class-names";
import { isPaidStatus, orderStatusLabel } from "~/features/booking/order-status";

/** The order's status in French: green once paid or completed, yellow otherwise. */
export function OrderStatusBadge({ status }: { status: string }) {
  return (
    <span
      className={cn(
        "inline-flex rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap",
        isPaidStatus(status) ? "bg-green-100 text-green-800" : "bg-yellow-100 text-yellow-900",
      )}
    >
      {orderStatusLabel(status)}
    </span>
  );
}
