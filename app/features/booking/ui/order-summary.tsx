import { SectionCard } from "~/components/layout/section-card";
import { formatFlightDate } from "~/features/booking/flight-date";
import type { OrderDetails } from "~/features/booking/order-details";
import { formatAmount, toMinorUnits } from "~/lib/currency";
import { siteConfig } from "../../../../site.config";
import { SummaryList } from "~/components/layout/summary-list";
import { customerOrderStatus } from "~/features/booking/order-status";

/** The order before payment, as the payment page lists it, with the subscription it starts if any. */
export function OrderSummary({ order, startsTrial }: { order: OrderDetails; startsTrial: boolean }) {
  const { adultPrice, childPrice } = siteConfig.fastTrack;
  const money = (minorUnits: number) => formatAmount(minorUnits, order.currency);
  const rows: [string, React.ReactNode][] = [
    ["Fast-Track", money(order.amount)],
    [
      "Subscription",
      startsTrial
        ? `${money(0)} now (${money(toMinorUnits(siteConfig.pricing.medium.price))} after the ${siteConfig.trialDays}-day trial)`
        : "None: free trial already used",
    ],
    ["Name", order.customerName],
    ["Email", order.email ?? "Not specified"],
    ["Airport", order.airport ?? "Not specified"],
    ["Flight Date", order.flightDate ? formatFlightDate(order.flightDate) : "Not specified"],
    ["Adults", `${order.adults} x ${money(toMinorUnits(adultPrice))}`],
  ];
  if (order.children > 0) rows.push(["Children", `${order.children} x ${money(toMinorUnits(childPrice))}`]);
  if (order.freeAccesses > 0) rows.push(["Free accesses", `${order.freeAccesses} of your membership's`]);
  rows.push(["Status", <span className="font-semibold">{customerOrderStatus(order.status)}</span>]);

  return (
    <SectionCard title="Order Summary" subtitle={`Order ${order.orderNumber}`}>
      <SummaryList rows={rows} />
    </SectionCard>
  );
}
