import type { CurrencyCode } from "~/lib/currency";
import type { OrderStatus } from "./order-status";

/** An order as the payment and confirmation pages show it. */
export interface OrderDetails {
  id: string;
  orderNumber: string;
  /** Minor units of `currency`. */
  amount: number;
  currency: CurrencyCode;
  status: OrderStatus;
  airport: string | null;
  flightDate: string | null;
  adults: number;
  children: number;
  /** Passengers the member's free accesses cover (ADR 029): they are not in `amount`. */
  freeAccesses: number;
  customerName: string;
  email: string | null;
  /** The voucher's short code, given when the order was paid; null before, and for orders paid before short codes. */
  voucherShortCode: string | null;
}
