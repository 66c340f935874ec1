import { Link } from "react-router";
import { cn } from "~/lib/class-names";
import { formatAmountFr, formatDateTimeFr } from "./format";
import { OrderStatusBadge } from "./order-status-badge";
import type { ClientOrderRow } from "./clients-admin.server";

type OrderRow = ClientOrderRow & { customerName?: string | null };

const COLUMNS = [
  { label: "N° de commande" },
  { label: "Client", customer: true },
  { label: "Service" },
  { label: "Montant", numeric: true },
  { label: "Statut" },
  { label: "Date" },
];

/** Orders, each linked to its page in the back office; with the customer's name unless they are all one customer's. */
export function OrdersTable({
  orders,
  label,
  withCustomer = true,
}: {
  orders: OrderRow[];
  /** Names the scrolling region the table sits in. */
  label: string;
  withCustomer?: boolean;
}) {
  const columns = COLUMNS.filter((column) => withCustomer || !column.customer);
  return (
    <div className="overflow-x-auto" role="region" aria-label={label} tabIndex={0}>
      <table className={cn("w-full text-left text-sm", withCustomer ? "min-w-[44rem]" : "min-w-[34rem]")}>
        <thead className="border-b text-muted-foreground">
          <tr>
            {columns.map(({ label: column, numeric }) => (
              <th key={column} scope="col" className={cn("py-2 pr-4 font-medium last:pr-0", numeric && "text-right")}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {orders.map((order) => (
            <tr key={order.id} className="border-b last:border-0">
              <td className="py-3 pr-4 font-mono text-xs">
                <Link to={`/admin/orders/${order.id}`} className="text-link underline-offset-4 hover:underline">
                  {order.orderNumber}
                </Link>
              </td>
              {withCustomer ? <td className="py-3 pr-4">{order.customerName ?? "—"}</td> : null}
              <td className="py-3 pr-4">{order.serviceType}</td>
              <td className="py-3 pr-4 text-right whitespace-nowrap tabular-nums">
                {formatAmountFr(order.amount, order.currency)}
              </td>
              <td className="py-3 pr-4">
                <OrderStatusBadge status={order.status} />
              </td>
              <td className="py-3 whitespace-nowrap tabular-nums">{formatDateTimeFr(order.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
