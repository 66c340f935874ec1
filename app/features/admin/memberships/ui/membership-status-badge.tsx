import { StatusBadge, type StatusTone } from "~/components/ui/status-badge";
import type { MembershipStatus } from "~/db/schema";
import { membershipStatusLabel } from "~/features/memberships/membership-status";

const TONES: Record<MembershipStatus, StatusTone> = {
  trialing: "info",
  active: "good",
  past_due: "bad",
  cancelled: "neutral",
  ended: "neutral",
};

/** The membership's status in French: blue in trial, green when paid up, red when a fee is unpaid, grey once over. */
export function MembershipStatusBadge({ status }: { status: MembershipStatus }) {
  return <StatusBadge tone={TONES[status]}>{membershipStatusLabel(status)}</StatusBadge>;
}
