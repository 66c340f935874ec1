import { addMonths, format, parseISO } from "date-fns";
import { TIME_ZONE } from "~/features/admin/format";
import { RETENTION } from "./retention";

/** The day by which a request received on `receivedOn` ("YYYY-MM-DD") must be answered: one calendar month later. */
export function responseDeadline(receivedOn: string): string {
  return format(addMonths(parseISO(receivedOn), RETENTION.dataRequestResponseMonths), "yyyy-MM-dd");
}

const isoDay = new Intl.DateTimeFormat("en-CA", {
  timeZone: TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** "YYYY-MM-DD" of `now` in the company's time zone: the day requests are received and due on. */
export function companyDay(now: Date): string {
  return isoDay.format(now);
}

export type DataRequestStatus = "done" | "overdue" | "open";

/** Answered, open past its deadline, or open within it (the deadline day itself still counts). */
export function dataRequestStatus(
  request: { receivedOn: string; completedAt: Date | null },
  today: string,
): DataRequestStatus {
  if (request.completedAt) return "done";
  return today > responseDeadline(request.receivedOn) ? "overdue" : "open";
}

/** "21/03/2025" from "2025-03-21". */
export function formatDayFr(isoDate: string): string {
  return isoDate.split("-").reverse().join("/");
}

/** "dans un délai d'un mois": the response period, in French. */
export const RESPONSE_DELAY_FR =
  RETENTION.dataRequestResponseMonths === 1
    ? "dans un délai d'un mois"
    : `dans un délai de ${RETENTION.dataRequestResponseMonths} mois`;
