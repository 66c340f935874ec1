import { formatMemberDay } from "~/features/memberships/membership-mails";
import { COMPANY_TIME_ZONE } from "~/lib/company-time";

const clock = new Intl.DateTimeFormat("en-GB", {
  timeZone: COMPANY_TIME_ZONE,
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

/** When a withdrawal was received, as the page and the acknowledgement say it: "27 November 2026" and "14:05", in Amsterdam. */
export function receiptTime(receivedAt: Date): { day: string; time: string } {
  return { day: formatMemberDay(receivedAt), time: clock.format(receivedAt) };
}
