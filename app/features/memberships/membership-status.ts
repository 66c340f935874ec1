import type { InvoiceStatus, MembershipPlan, MembershipStatus } from "~/db/schema";
import { siteConfig } from "../../../site.config";

export type { MembershipStatus };

/**
 * The membership state machine. A trial becomes active when its first fee is paid and past due
 * when it is declined; past due becomes active again when a retry is paid, or ends when the grace
 * runs out. A cancellation (the member's at period end, or an admin's at once) makes it cancelled.
 * A change that keeps the status (a renewal, a cancellation requested for the period's end) is
 * recorded in the history too.
 */
export const MEMBERSHIP_TRANSITIONS: Readonly<Record<MembershipStatus, readonly MembershipStatus[]>> = {
  trialing: ["trialing", "active", "past_due", "cancelled"],
  active: ["active", "past_due", "cancelled"],
  past_due: ["past_due", "active", "ended", "cancelled"],
  cancelled: [],
  ended: [],
};

export function canChangeMembership(from: MembershipStatus, to: MembershipStatus): boolean {
  return MEMBERSHIP_TRANSITIONS[from].includes(to);
}

/** Memberships that still run: they may be charged, and they may be cancelled. */
export const LIVE_MEMBERSHIP_STATUSES = [
  "trialing",
  "active",
  "past_due",
] as const satisfies readonly MembershipStatus[];

export function isLiveMembership(status: MembershipStatus): boolean {
  return (LIVE_MEMBERSHIP_STATUSES as readonly string[]).includes(status);
}

/**
 * Memberships charged at the end of their period unless cancelled for then: their fees are the
 * recurring revenue (the dashboard's summary triggers, migration 0012, apply the same rule).
 */
export const RECURRING_MEMBERSHIP_STATUSES = ["trialing", "active"] as const satisfies readonly MembershipStatus[];

const FRENCH_LABELS: Record<MembershipStatus, string> = {
  trialing: "Essai",
  active: "Active",
  past_due: "Impayée",
  cancelled: "Résiliée",
  ended: "Terminée",
};

/** The status as the back office shows it, in French. */
export function membershipStatusLabel(status: string): string {
  return FRENCH_LABELS[status as MembershipStatus] ?? status;
}

/** The plan's name as the site shows it ("Medium", "Premium"). */
export function membershipPlanName(plan: MembershipPlan): string {
  return siteConfig.pricing[plan].name;
}

const INVOICE_FRENCH_LABELS: Record<InvoiceStatus, string> = {
  open: "En attente",
  paid: "Payée",
  refunded: "Remboursée",
  uncollectible: "Impayée",
  void: "Annulée",
};

/** An invoice's status as the back office shows it, in French. */
export function invoiceStatusLabel(status: string): string {
  return INVOICE_FRENCH_LABELS[status as InvoiceStatus] ?? status;
}
