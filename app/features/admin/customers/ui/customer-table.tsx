import { Link } from "react-router";
import { CustomerName } from "../../ui/customer-name";
import type { CustomerSummary } from "~/features/admin/customers/customers-admin.server";
import { formatCountFr, formatDateTimeFr } from "~/lib/format-fr";
import { PaidTotals } from "./paid-totals";

/** The page's customers, each linked to their page, with their order count and what they paid. */
export function CustomerTable({ customers }: { customers: CustomerSummary[] }) {
  return (
    <div className="overflow-x-auto" role="region" aria-label="Liste des clients" tabIndex={0}>
      <table className="w-full text-left text-sm">
        <thead className="border-b text-muted-foreground">
          <tr>
            <th scope="col" className="py-2 pr-4 font-medium">
              Client
            </th>
            <th scope="col" className="py-2 pr-4 text-right font-medium">
              Commandes
            </th>
            <th scope="col" className="py-2 pr-4 text-right font-medium sm:pr-4">
              Total payé
            </th>
            <th scope="col" className="hidden py-2 font-medium sm:table-cell">
              Client depuis
            </th>
          </tr>
        </thead>
        <tbody>
          {customers.map((customer) => (
            <tr key={customer.id} className="border-b align-top last:border-0">
              <td className="py-3 pr-4">
                <Link
                  to={`/admin/clients/${customer.id}`}
                  className="font-medium text-link underline-offset-4 wrap-anywhere hover:underline"
                >
                  <CustomerName customer={customer} />
                </Link>
                {customer.email ? <p className="text-muted-foreground wrap-anywhere">{customer.email}</p> : null}
              </td>
              <td className="py-3 pr-4 text-right tabular-nums">{formatCountFr(customer.orders)}</td>
              <td className="py-3 pr-4 text-right">
                <PaidTotals paid={customer.paid} />
              </td>
              <td className="hidden py-3 whitespace-nowrap tabular-nums sm:table-cell">
                {formatDateTimeFr(customer.createdAt)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
