/** The trial an order's payment started, as its confirmation page words it. */
export interface TrialSummary {
  planName: string;
  /** "27 November 2026". */
  freeUntil: string;
  /** "€49". */
  fee: string;
  periodMonths: number;
  /** "Visa ending 4242". */
  card: string;
}
