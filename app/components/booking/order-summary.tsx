import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { formatFlightDate } from "~/features/booking/flight-date";
import type { OrderDetails } from "~/features/booking/order-details";
import { formatAmount, toMinorUnits } from "~/features/booking/pricing";
import { siteConfig } from "../../../site.config";
import { SummaryList } from "./summary-list";

/** The order before payment, as spec §2 lists it. */
export function OrderSummary({ order }: { order: OrderDetails }) {
  const { adultPrice, childPrice } = siteConfig.fastTrack;
  const money = (minorUnits: number) => formatAmount(minorUnits, order.currency);
  const rows: [string, React.ReactNode][] = [
    ["Fast-Track", money(order.amount)],
    [
      "Subscription",
      `${money(0)} now (${money(toMinorUnits(siteConfig.pricing.medium.price))} after the ${siteConfig.trialDays}-day trial)`,
    ],
    ["Name", order.customerName],
    ["Email", order.email ?? "Not specified"],
    ["Airport", order.airport ?? "Not specified"],
    ["Flight Date", order.flightDate ? formatFlightDate(order.flightDate) : "Not specified"],
    ["Adults", `${order.adults} x ${money(toMinorUnits(adultPrice))}`],
  ];
  if (order.children > 0) rows.push(["Children", `${order.children} x ${money(toMinorUnits(childPrice))}`]);
  rows.push(["Status", <span className="font-semibold">{order.status.toUpperCase()}</span>]);

  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">Order Summary</h2>
        </CardTitle>
        <p className="text-sm text-muted-foreground">Order {order.orderNumber}</p>
      </CardHeader>
      <CardContent>
        <SummaryList rows={rows} />
      </CardContent>
    </Card>
  );
}
