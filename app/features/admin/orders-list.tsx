import { Link } from "react-router";
import { formatAmountFr, formatDateTimeFr } from "./format";
import { OrderStatusBadge } from "./order-status-badge";
import type { AdminOrderRow } from "./orders-admin.server";

const COLUMNS = ["N° de commande", "Client", "Statut", "Montant", "Date"];

const orderLink = (order: AdminOrderRow) => (
  <Link
    to={`/admin/orders/${order.id}`}
    className="font-mono text-xs font-medium text-link underline-offset-4 hover:underline"
  >
    {order.orderNumber}
  </Link>
);

const customerText = (order: AdminOrderRow) => (
  <>
    <span className="block">{order.customerName ?? "—"}</span>
    {order.customerEmail ? (
      <span className="block text-xs text-muted-foreground wrap-anywhere">{order.customerEmail}</span>
    ) : null}
  </>
);

/** The orders of one page, each linked to its own page: a table on wide screens, cards on a phone. */
export function OrdersList({ orders }: { orders: AdminOrderRow[] }) {
  if (orders.length === 0) {
    return <p className="text-sm text-muted-foreground">Aucune commande ne correspond à ces critères.</p>;
  }
  return (
    <>
      <ul className="grid gap-3 md:hidden" aria-label="Commandes">
        {orders.map((order) => (
          <li key={order.id} className="grid gap-1 rounded-lg border p-4 text-sm">
            <p className="flex flex-wrap items-center justify-between gap-2">
              {orderLink(order)}
              <OrderStatusBadge status={order.status} />
            </p>
            <div>{customerText(order)}</div>
            <p className="flex justify-between gap-2 text-muted-foreground tabular-nums">
              <span>{formatDateTimeFr(order.createdAt)}</span>
              <span className="font-medium text-foreground">{formatAmountFr(order.amount, order.currency)}</span>
            </p>
          </li>
        ))}
      </ul>
      <div className="hidden overflow-x-auto md:block" role="region" aria-label="Commandes" tabIndex={0}>
        <table className="w-full min-w-[44rem] text-left text-sm">
          <thead className="border-b text-muted-foreground">
            <tr>
              {COLUMNS.map((label) => (
                <th key={label} scope="col" className="py-2 pr-4 font-medium last:pr-0 [&:nth-child(4)]:text-right">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {orders.map((order) => (
              <tr key={order.id} className="border-b align-top last:border-0">
                <td className="py-3 pr-4">{orderLink(order)}</td>
                <td className="py-3 pr-4">{customerText(order)}</td>
                <td className="py-3 pr-4">
                  <OrderStatusBadge status={order.status} />
                </td>
                <td className="py-3 pr-4 text-right whitespace-nowrap tabular-nums">
                  {formatAmountFr(order.amount, order.currency)}
                </td>
                <td className="py-3 whitespace-nowrap tabular-nums">{formatDateTimeFr(order.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
