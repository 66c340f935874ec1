import { Link } from "react-router";
import { cn } from "~/lib/class-names";
import { dataRequestStatus } from "~/features/privacy/data-request-deadline";
import { formatDayFr } from "~/lib/format-fr";
import { DATA_REQUEST_KIND_LABELS } from "~/features/privacy/data-request-schema";
import { DataRequestDeadline, DataRequestStatusBadge } from "./data-request-status";
import type { DataRequest } from "~/features/privacy/data-requests.server";

const COLUMNS = ["E-mail", "Type", "Reçue le", "Échéance", "Statut"];

/** The requests, each linked to its page; an overdue one stands out. */
export function DataRequestTable({ requests, today }: { requests: DataRequest[]; today: string }) {
  if (requests.length === 0) {
    return <p className="text-sm text-muted-foreground">Aucune demande enregistrée.</p>;
  }
  return (
    <>
      <DataRequestCards requests={requests} today={today} />
      <div className="hidden overflow-x-auto md:block" role="region" aria-label="Demandes enregistrées" tabIndex={0}>
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
                <td className="py-3 pr-4">{requestLink(request)}</td>
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
    </>
  );
}

const requestLink = (request: DataRequest) => (
  <Link
    to={`/admin/data-requests/${request.id}`}
    className="font-medium text-link underline-offset-4 wrap-anywhere hover:underline"
  >
    {request.email}
  </Link>
);

/** On a phone, one card per request: a table would hide the status off to the right. */
function DataRequestCards({ requests, today }: { requests: DataRequest[]; today: string }) {
  return (
    <ul className="grid gap-3 md:hidden" aria-label="Demandes enregistrées">
      {requests.map((request) => (
        <li
          key={request.id}
          className={cn(
            "grid gap-1 rounded-lg border p-4 text-sm",
            dataRequestStatus(request, today) === "overdue" && "border-red-200 bg-red-50",
          )}
        >
          {requestLink(request)}
          <p className="text-muted-foreground">
            {DATA_REQUEST_KIND_LABELS[request.kind]} · reçue le {formatDayFr(request.receivedOn)}
          </p>
          <p className="flex flex-wrap items-center justify-between gap-2">
            <span>
              Échéance : <DataRequestDeadline request={request} today={today} />
            </span>
            <DataRequestStatusBadge request={request} today={today} />
          </p>
        </li>
      ))}
    </ul>
  );
}
