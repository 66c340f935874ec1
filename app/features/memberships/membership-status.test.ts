import { describe, expect, it } from "vitest";
import { MEMBERSHIP_STATUSES } from "~/db/schema";
import { canChangeMembership, isLiveMembership, membershipStatusLabel } from "./membership-status";

describe("the membership state machine", () => {
  it("allows exactly the lifecycle of the terms, and nothing out of cancelled or ended", () => {
    const allowed = MEMBERSHIP_STATUSES.flatMap((from) =>
      MEMBERSHIP_STATUSES.filter((to) => canChangeMembership(from, to)).map((to) => `${from} -> ${to}`),
    );
    expect(allowed.sort()).toEqual([
      "active -> active",
      "active -> cancelled",
      "active -> past_due",
      "past_due -> active",
      "past_due -> cancelled",
      "past_due -> ended",
      "past_due -> past_due",
      "trialing -> active",
      "trialing -> cancelled",
      "trialing -> past_due",
      "trialing -> trialing",
    ]);
  });

  it("counts trialing, active and past due as live: they may be charged and cancelled", () => {
    expect(MEMBERSHIP_STATUSES.filter(isLiveMembership)).toEqual(["trialing", "active", "past_due"]);
  });

  it("labels every status in French, and shows an unknown one as it is", () => {
    expect(MEMBERSHIP_STATUSES.map(membershipStatusLabel)).toEqual([
      "Essai",
      "Active",
      "Impayée",
      "Résiliée",
      "Terminée",
    ]);
    expect(membershipStatusLabel("paused")).toBe("paused");
  });
});
