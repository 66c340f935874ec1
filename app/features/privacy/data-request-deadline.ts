import { addCompanyMonths } from "~/lib/company-time";
import { RETENTION } from "./retention";

/** The day by which a request received on `receivedOn` ("YYYY-MM-DD") must be answered: one calendar month later. */
export function responseDeadline(receivedOn: string): string {
  return addCompanyMonths(receivedOn, RETENTION.dataRequestResponseMonths);
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

/** "dans un délai d'un mois": the response period, in French. */
export const RESPONSE_DELAY_FR =
  RETENTION.dataRequestResponseMonths === 1
    ? "dans un délai d'un mois"
    : `dans un délai de ${RETENTION.dataRequestResponseMonths} mois`;
