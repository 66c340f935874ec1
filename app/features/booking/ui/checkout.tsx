import { SectionCard } from "~/components/layout/section-card";
import type { OrderDetails } from "~/features/booking/order-details";
import { freeAccessesNote, TRIAL_USED_NOTE, trialNote } from "~/features/booking/pricing";
import { formatAmount } from "~/lib/currency";
import { CheckoutSteps } from "./checkout-steps";
import { OrderSummary } from "./order-summary";

/** The payment step of an unpaid order, around the gateway's card form. */
export function Checkout({
  order,
  startsTrial,
  children,
}: {
  order: OrderDetails;
  /** Whether paying starts the address's free trial (an address gets one). */
  startsTrial: boolean;
  children: React.ReactNode;
}) {
  return (
    <div className="pt-10 pb-16">
      <CheckoutSteps current={2} />
      <div className="mx-auto max-w-5xl px-4 pt-10 text-center sm:px-6">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Checkout</h1>
        <p className="mt-4 text-2xl font-semibold">
          Total: <span data-testid="checkout-total">{formatAmount(order.amount, order.currency)}</span>
        </p>
        <p className="mx-auto mt-2 max-w-2xl text-muted-foreground" data-testid="trial-note">
          {order.freeAccesses > 0 ? freeAccessesNote(order) : startsTrial ? trialNote(order.currency) : TRIAL_USED_NOTE}
        </p>
      </div>
      <div className="mx-auto mt-10 grid max-w-5xl gap-6 px-4 sm:px-6 md:grid-cols-[1fr_22rem]">
        <SectionCard title={order.amount === 0 ? "Confirm Your Booking" : "Payment Details"}>{children}</SectionCard>
        <OrderSummary order={order} startsTrial={startsTrial} />
      </div>
    </div>
  );
}
