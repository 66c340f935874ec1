import type { WithdrawalOutcome } from "~/db/schema";
import type { StatusTone } from "~/components/ui/status-badge";

/** The back office's words for what a withdrawal did (French), and how much it asks for attention. */
export const WITHDRAWAL_OUTCOME_LABELS: Record<WithdrawalOutcome, { label: string; tone: StatusTone }> = {
  withdrawn: { label: "Rétractation appliquée", tone: "good" },
  late: { label: "Hors délai", tone: "neutral" },
  // The details matched no contract: someone should look into it (a typing mistake, another address).
  unmatched: { label: "Sans correspondance", tone: "pending" },
};

/** The outcome as the back office words it, in French. */
export function withdrawalOutcomeLabel(outcome: string): string {
  return WITHDRAWAL_OUTCOME_LABELS[outcome as WithdrawalOutcome]?.label ?? outcome;
}
