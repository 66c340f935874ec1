import { describe, expect, it } from "vitest";
import type { AccountMembership } from "./account.server";
import { membershipWords } from "./membership-words";

// A trial that ends on the last day of February, in Amsterdam (23:30 UTC is already 1 March there).
const base: AccountMembership = {
  id: "m",
  plan: "medium",
  status: "trialing",
  price: 4900,
  currency: "EUR",
  trialEndsAt: new Date("2027-02-28T10:00:00Z"),
  currentPeriodStart: new Date("2027-02-25T10:00:00Z"),
  currentPeriodEnd: new Date("2027-02-28T10:00:00Z"),
  cancelAtPeriodEnd: false,
  scheduledPlan: null,
  graceEndsAt: null,
  endedAt: null,
  cardBrand: "Visa",
  cardLast4: "4242",
  providerBilled: false,
  awaitsConfirmation: false,
  createdAt: new Date("2027-02-25T10:00:00Z"),
};

describe("membershipWords", () => {
  it.each<[string, Partial<AccountMembership>, string, string]>([
    [
      "a trial",
      {},
      "Free trial",
      "Your free trial ends on 28 February 2027. Then we charge €49 to your Visa ending 4242.",
    ],
    [
      "a cancelled trial",
      { cancelAtPeriodEnd: true },
      "Cancelled",
      "Your free trial ends on 28 February 2027. Nothing will be charged.",
    ],
    [
      "a paid quarter",
      { status: "active", currentPeriodEnd: new Date("2027-05-31T21:59:00Z") },
      "Active",
      "Next charge: €49 on 31 May 2027, to your Visa ending 4242.",
    ],
    [
      "a paid quarter ending after midnight in Amsterdam",
      { status: "active", currentPeriodEnd: new Date("2027-05-31T22:30:00Z") },
      "Active",
      "Next charge: €49 on 1 June 2027, to your Visa ending 4242.",
    ],
    [
      "a Premium quarter moving to Medium when it ends",
      {
        status: "active",
        plan: "premium",
        price: 7900,
        scheduledPlan: "medium",
        currentPeriodEnd: new Date("2027-05-31T21:59:00Z"),
      },
      "Active",
      "Next charge: €49 on 31 May 2027, to your Visa ending 4242.",
    ],
    [
      "a cancelled paid quarter",
      { status: "active", cancelAtPeriodEnd: true, currentPeriodEnd: new Date("2027-05-31T10:00:00Z") },
      "Cancelled",
      "You keep your benefits until 31 May 2027. No further fee will be charged.",
    ],
    [
      "a declined fee",
      { status: "past_due", graceEndsAt: new Date("2027-03-07T10:00:00Z") },
      "Payment due",
      "We could not charge €49 to your Visa ending 4242. If it is still unpaid on 7 March 2027, your membership ends. We try the card again every 2 days.",
    ],
    [
      "a fee the bank holds for 3-D Secure",
      { status: "past_due", graceEndsAt: new Date("2027-03-07T10:00:00Z"), awaitsConfirmation: true },
      "Payment due",
      "Your bank asks you to confirm the payment of €49 with your Visa ending 4242. If it is still unpaid on 7 March 2027, your membership ends.",
    ],
    [
      "an ended cancellation",
      { status: "cancelled", endedAt: new Date("2027-02-28T10:00:00Z") },
      "Cancelled",
      "Your membership ended on 28 February 2027. Nothing more will be charged.",
    ],
    [
      "a membership ended unpaid",
      { status: "ended", endedAt: new Date("2027-03-07T10:00:00Z") },
      "Ended",
      "Your membership ended on 7 March 2027, its fee unpaid. Nothing more will be charged.",
    ],
  ])("words %s", (_case, changes, status, next) => {
    const words = membershipWords({ ...base, ...changes });
    expect(words).toMatchObject({ planName: changes.plan === "premium" ? "Premium" : "Medium", status, next });
    expect(words.rows).toContainEqual(["Card", "Visa ending 4242"]);
  });
});

describe("what cancelling would do, as the confirm step says it", () => {
  it.each<[string, Partial<AccountMembership>, string]>([
    ["a trial", {}, "Your free trial ends on 28 February 2027 and nothing is charged."],
    ["a declined fee", { status: "past_due" }, "It ends today, and the unpaid fee of €49 is never charged."],
    [
      "a paid quarter",
      { status: "active", currentPeriodEnd: new Date("2027-05-31T10:00:00Z") },
      "It will not renew, and nothing more will be charged. You keep its benefits until 31 May 2027 at the latest (sooner with one month's notice, the rest of the fee refunded): the next page says the day.",
    ],
  ])("for %s", (_case, changes, consequence) => {
    expect(membershipWords({ ...base, ...changes }).cancelConsequence).toBe(consequence);
  });
});
