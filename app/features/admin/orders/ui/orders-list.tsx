import { Link } from "react-router";
import { CardsOrTable } from "../../ui/cards-or-table";
import { formatAmountFr, formatDateTimeFr } from "~/lib/format-fr";
import { OrderStatusBadge } from "./order-status-badge";
import type { CustomerOrderRow } from "~/features/admin/orders/orders-admin.server";

type OrderListRow = CustomerOrderRow & { customerName?: string | null; customerEmail?: string | null };

const COLUMNS = [
  { label: "N° de commande" },
  { label: "Client", customer: true },
  { label: "Service" },
  { label: "Statut" },
  { label: "Montant", numeric: true },
  { label: "Date" },
];

const orderLink = (order: OrderListRow) => (
  <Link
    to={`/admin/orders/${order.id}`}
    className="font-mono text-xs font-medium text-link underline-offset-4 hover:underline"
  >
    {order.orderNumber}
  </Link>
);

const customerText = (order: OrderListRow) => (
  <>
    <span className="block">{order.customerName ?? "—"}</span>
    {order.customerEmail ? (
      <span className="block text-xs text-muted-foreground wrap-anywhere">{order.customerEmail}</span>
    ) : null}
  </>
);

/**
 * Orders, each linked to its page in the back office: cards on a phone, a table on wider screens;
 * with the customer unless they are all one customer's.
 */
export function OrdersList({
  orders,
  label,
  withCustomer = true,
}: {
  orders: OrderListRow[];
  /** Names the list and the table's scrolling region. */
  label: string;
  withCustomer?: boolean;
}) {
  const columns = COLUMNS.filter((column) => withCustomer || !column.customer);
  return (
    <CardsOrTable
      label={label}
      columns={columns}
      tableClassName={withCustomer ? "min-w-[44rem]" : "min-w-[34rem]"}
      cards={
        <>
          {orders.map((order) => (
            <li key={order.id} className="grid gap-1 rounded-lg border p-4 text-sm">
              <p className="flex flex-wrap items-center justify-between gap-2">
                {orderLink(order)}
                <OrderStatusBadge status={order.status} />
              </p>
              {withCustomer ? <div>{customerText(order)}</div> : null}
              <p className="text-muted-foreground">{order.serviceType}</p>
              <p className="flex justify-between gap-2 text-muted-foreground tabular-nums">
                <span>{formatDateTimeFr(order.createdAt)}</span>
                <span className="font-medium text-foreground">{formatAmountFr(order.amount, order.currency)}</span>
              </p>
            </li>
          ))}
        </>
      }
      rows={
        <>
          {orders.map((order) => (
            <tr key={order.id} className="border-b align-top last:border-0">
              <td className="py-3 pr-4">{orderLink(order)}</td>
              {withCustomer ? <td className="py-3 pr-4">{customerText(order)}</td> : null}
              <td className="py-3 pr-4">{order.serviceType}</td>
              <td className="py-3 pr-4">
                <OrderStatusBadge status={order.status} />
              </td>
              <td className="py-3 pr-4 text-right whitespace-nowrap tabular-nums">
                {formatAmountFr(order.amount, order.currency)}
              </td>
              <td className="py-3 whitespace-nowrap tabular-nums">{formatDateTimeFr(order.createdAt)}</td>
            </tr>
          ))}
        </>
      }
    />
  );
}
