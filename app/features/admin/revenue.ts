import type { CurrencyCode } from "~/db/enums";

/**
 * The money of one currency as an accountant reads it (ADR 031), in minor units. Gross sales first,
 * then what was given back: an order or a fee refunded after it was paid stays in its gross figure,
 * and its refund is counted once, in `refunds`.
 */
export interface Revenue {
  /** Orders that were charged: paid, completed, or refunded since. */
  fastTracks: number;
  /** Membership fees that were charged: invoices paid, or refunded since. */
  fees: number;
  /** Refunds made, of orders and of fees. */
  refunds: number;
  /** `fastTracks` + `fees` − `refunds`. */
  net: number;
}

export interface CurrencyRevenue extends Revenue {
  currency: CurrencyCode;
}

/** The figures' French names, in the order the back office shows them, with what each counts. */
export const REVENUE_FIGURES: { key: keyof Revenue; label: string; note: string }[] = [
  { key: "fastTracks", label: "Fast-tracks", note: "commandes encaissées, même remboursées ensuite" },
  { key: "fees", label: "Cotisations", note: "cotisations d'abonnement encaissées, même remboursées ensuite" },
  { key: "refunds", label: "Remboursements", note: "de fast-tracks et de cotisations" },
  { key: "net", label: "Net", note: "fast-tracks + cotisations − remboursements" },
];
