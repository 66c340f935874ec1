import { describe, expect, it } from "vitest";
import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-terms";
import { lastDayToWithdraw, withdrawalPeriodEnd } from "./model-withdrawal-form";

describe("the withdrawal period", () => {
  // 11:00 in Amsterdam on 1 March 2026, in winter time (UTC+1).
  const confirmedAt = new Date("2026-03-01T10:00:00Z");

  it("runs to the end of the 14th day after the confirmation's day, in Amsterdam", () => {
    expect(MEMBERSHIP_TERMS.changeOfMindDays).toBe(14);
    expect(withdrawalPeriodEnd(confirmedAt).toISOString()).toBe("2026-03-15T23:00:00.000Z");
    expect(lastDayToWithdraw(confirmedAt).toISOString()).toBe("2026-03-15T22:59:59.999Z");
  });

  it("takes 23:59 on the last day and not midnight after it", () => {
    const end = withdrawalPeriodEnd(confirmedAt);
    expect(new Date("2026-03-15T22:59:00Z") < end).toBe(true);
    expect(new Date("2026-03-15T23:00:00Z") < end).toBe(false);
  });

  it("counts from the day, not the hour: a late-evening order gets the same last day as a morning one", () => {
    const lateEvening = new Date("2026-03-01T22:30:00Z"); // 23:30 in Amsterdam
    expect(withdrawalPeriodEnd(lateEvening)).toEqual(withdrawalPeriodEnd(confirmedAt));
  });
});
