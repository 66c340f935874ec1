import { Link } from "react-router";
import { cn } from "~/lib/class-names";
import { dataRequestStatus, formatDayFr } from "./data-request-deadline";
import { DATA_REQUEST_KIND_LABELS } from "./data-request-schema";
import { DataRequestDeadline, DataRequestStatusBadge } from "./data-request-status";
import type { DataRequest } from "./data-requests.server";

const COLUMNS = ["E-mail", "Type", "Reçue le", "Échéance", "Statut"];

/** The requests, each linked to its page; an overdue one stands out. */
export function DataRequestTable({ requests, today }: { requests: DataRequest[]; today: string }) {
  if (requests.length === 0) {
    return <p className="text-sm text-muted-foreground">Aucune demande enregistrée.</p>;
  }
  return (
    <div className="overflow-x-auto" role="region" aria-label="Demandes enregistrées" tabIndex={0}>
      <table className="w-full min-w-[40rem] text-left text-sm">
        <thead className="border-b text-muted-foreground">
          <tr>
            {COLUMNS.map((label) => (
              <th key={label} scope="col" className="py-2 pr-4 font-medium last:pr-0">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {requests.map((request) => (
            <tr
              key={request.id}
              className={cn("border-b last:border-0", dataRequestStatus(request, today) === "overdue" && "bg-red-50")}
            >
              <td className="py-3 pr-4">
                <Link
                  to={`/admin/data-requests/${request.id}`}
                  className="font-medium text-link underline-offset-4 hover:underline"
                >
                  {request.email}
                </Link>
              </td>
              <td className="py-3 pr-4">{DATA_REQUEST_KIND_LABELS[request.kind]}</td>
              <td className="py-3 pr-4 whitespace-nowrap tabular-nums">{formatDayFr(request.receivedOn)}</td>
              <td className="py-3 pr-4 whitespace-nowrap">
                <DataRequestDeadline request={request} today={today} />
              </td>
              <td className="py-3">
                <DataRequestStatusBadge request={request} today={today} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
