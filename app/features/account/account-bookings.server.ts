import { addCompanyDays, companyDay } from "~/lib/company-time";
import { formatAmount } from "~/lib/currency";
import { formatFlightDate } from "~/features/booking/flight-date";
import { customerOrderStatus, isPaidStatus } from "~/features/booking/order-status";
import { describePassengers } from "~/features/booking/passengers";
import { voucherFor } from "~/features/booking/voucher.server";
import type { Voucher } from "~/features/booking/ui/voucher-view";
import { lastDayToWithdraw, withdrawalPeriodEnd } from "~/features/legal/model-withdrawal-form";
import { formatMemberDay } from "~/features/memberships/membership-mails";
import type { AccountOrder } from "./account.server";

/** A booking as the member area lists it; the voucher only for a paid flight still to come. */
export interface AccountBooking {
  id: string;
  orderNumber: string;
  status: string;
  paid: boolean;
  rows: [string, string][];
  voucher: Voucher | null;
  /** Until when the person may still withdraw from it (and the membership it started), or null. */
  withdrawUntil: string | null;
  /** Whether the withdrawal may take the membership this booking started too. */
  startedMembership: boolean;
}

/**
 * The bookings as their member reads them. A flight date is the airport's day, which may still be
 * "today" somewhere when Amsterdam is past midnight: vouchers stay until the day after the flight.
 */
export async function accountBookings(orders: AccountOrder[], origin: string, now: Date): Promise<AccountBooking[]> {
  const yesterday = addCompanyDays(companyDay(now), -1);
  return Promise.all(
    orders.map(async (order) => {
      const paid = isPaidStatus(order.status);
      const upcoming = order.flightDate !== null && order.flightDate >= yesterday;
      const rows: [string, string][] = [
        ["Airport", order.airport ?? "Not specified"],
        ["Flight date", order.flightDate ? formatFlightDate(order.flightDate) : "Not specified"],
        ["Passengers", describePassengers(order)],
        ["Amount", formatAmount(order.amount, order.currency)],
      ];
      if (order.invoiceNumber) rows.push(["Invoice number", order.invoiceNumber]);
      if (order.refunded > 0) rows.push(["Refunded", formatAmount(order.refunded, order.currency)]);
      return {
        id: order.id,
        orderNumber: order.orderNumber,
        status: customerOrderStatus(order.status),
        paid,
        rows,
        voucher: paid && upcoming ? await voucherFor(origin, order) : null,
        withdrawUntil:
          order.status === "paid" && order.paidAt && now < withdrawalPeriodEnd(order.paidAt)
            ? formatMemberDay(lastDayToWithdraw(order.paidAt))
            : null,
        startedMembership: order.startedMembership,
      };
    }),
  );
}
