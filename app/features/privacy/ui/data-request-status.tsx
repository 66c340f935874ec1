import { cn } from "~/lib/class-names";
import { formatDateTimeFr, formatDayFr } from "~/lib/format-fr";
import { dataRequestStatus, responseDeadline } from "~/features/privacy/data-request-deadline";

interface RequestDates {
  receivedOn: string;
  completedAt: Date | null;
}

const STYLES = {
  done: "bg-green-100 text-green-800",
  open: "bg-yellow-100 text-yellow-900",
  overdue: "bg-red-100 text-red-800",
} as const;

/** "Traitée le …", "À traiter" or "En retard", coloured to match. */
export function DataRequestStatusBadge({ request, today }: { request: RequestDates; today: string }) {
  const status = dataRequestStatus(request, today);
  const label =
    status === "done"
      ? `Traitée le ${formatDateTimeFr(request.completedAt!)}`
      : status === "overdue"
        ? "En retard"
        : "À traiter";
  return (
    <span
      className={cn("inline-flex rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap", STYLES[status])}
    >
      {label}
    </span>
  );
}

/** The deadline, in bold red once it has passed on an open request. */
export function DataRequestDeadline({ request, today }: { request: RequestDates; today: string }) {
  const overdue = dataRequestStatus(request, today) === "overdue";
  return (
    <span className={cn("tabular-nums", overdue && "font-semibold text-red-700")}>
      {formatDayFr(responseDeadline(request.receivedOn))}
    </span>
  );
}
