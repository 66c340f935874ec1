import { CheckCircle2 } from "lucide-react";
import { Link } from "react-router";
import { SectionCard } from "~/components/layout/section-card";
import { formatFlightDate } from "~/features/booking/flight-date";
import type { OrderDetails } from "~/features/booking/order-details";
import { describePassengers } from "~/features/booking/passengers";
import { formatAmount } from "~/lib/currency";
import { CheckoutSteps } from "./checkout-steps";
import { SummaryList } from "~/components/layout/summary-list";
import type { TrialSummary } from "~/features/memberships/trial-summary";
import { WITHDRAW_PATH } from "~/components/layout/nav-links";
import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-terms";
import { customerOrderStatus } from "~/features/booking/order-status";
import { VoucherView, type Voucher } from "./voucher-view";

/**
 * A paid order: what was booked and the voucher to show at the fast-track lane, and the free trial
 * its payment started, if it did and the trial still runs.
 */
export function BookingConfirmation({
  order,
  voucher,
  trial,
}: {
  order: OrderDetails;
  voucher: Voucher;
  trial: TrialSummary | null;
}) {
  return (
    <div className="pt-10 pb-16">
      <CheckoutSteps current={3} />
      <div className="mx-auto max-w-4xl px-4 pt-10 text-center sm:px-6">
        <CheckCircle2 className="mx-auto size-12 text-success" aria-hidden="true" />
        <h1 className="mt-4 text-3xl font-bold tracking-tight sm:text-4xl">Booking Confirmed</h1>
        <p className="mt-4 text-lg text-muted-foreground">
          Thank you, {order.customerName}. Your Fast Track is paid
          {order.email ? `, and a confirmation e-mail is on its way to ${order.email}` : ""}.
        </p>
      </div>
      <div className="mx-auto mt-10 grid max-w-4xl items-start gap-6 px-4 sm:px-6 md:grid-cols-2">
        <SectionCard title="Your Booking">
          <SummaryList
            rows={[
              ["Order Number", order.orderNumber],
              ["Airport", order.airport ?? "Not specified"],
              ["Flight Date", order.flightDate ? formatFlightDate(order.flightDate) : "Not specified"],
              ["Passengers", describePassengers(order)],
              ["Amount Paid", formatAmount(order.amount, order.currency)],
              ["Status", <span className="font-semibold text-success">{customerOrderStatus(order.status)}</span>],
            ]}
          />
        </SectionCard>
        <SectionCard
          title="Your Voucher"
          subtitle="Show this QR code at the fast-track lane on the day of your flight."
        >
          <VoucherView voucher={voucher} label="Voucher QR code" />
        </SectionCard>
        {trial ? (
          <SectionCard title="Your Membership" className="md:col-span-2">
            <p>
              Your free trial of the {trial.planName} membership has started: it is free until {trial.freeUntil}, then{" "}
              {trial.fee} every {trial.periodMonths} months, charged to your {trial.card}. We e-mail you the day before
              the first charge. To stop it, cancel before then on the{" "}
              <Link to="/unsubscribe" className="font-medium text-link underline underline-offset-4">
                Unsubscribe
              </Link>{" "}
              page: you pay nothing.
            </p>
          </SectionCard>
        ) : null}
      </div>
      <p className="mx-auto mt-6 max-w-4xl px-4 text-sm text-muted-foreground sm:px-6">
        Changed your mind? You can withdraw within {MEMBERSHIP_TERMS.changeOfMindDays} days of your confirmation e-mail,
        without giving a reason:{" "}
        <Link to={WITHDRAW_PATH} className="font-medium text-link underline underline-offset-4">
          withdraw from contract here
        </Link>
        .
      </p>
    </div>
  );
}
