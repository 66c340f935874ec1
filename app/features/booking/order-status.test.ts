import { describe, expect, it } from "vitest";
import { ORDER_STATUSES } from "~/db/schema";
import { canTransition, orderTransitions } from "./order-status";

describe("the order state machine", () => {
  it("allows exactly not_paid -> paid -> completed, not_paid -> cancelled, and paid or completed -> refunded", () => {
    const allowed = ORDER_STATUSES.flatMap((from) =>
      ORDER_STATUSES.filter((to) => canTransition(from, to)).map((to) => `${from} -> ${to}`),
    );
    expect(allowed.sort()).toEqual([
      "completed -> refunded",
      "not_paid -> cancelled",
      "not_paid -> paid",
      "paid -> completed",
      "paid -> refunded",
    ]);
  });
});

describe("orderTransitions", () => {
  it("lets a paid order that cost nothing be cancelled as well, and no other", () => {
    expect(orderTransitions({ status: "paid", amount: 0 })).toEqual(["completed", "refunded", "cancelled"]);
    expect(orderTransitions({ status: "paid", amount: 1 })).toEqual(["completed", "refunded"]);
    expect(orderTransitions({ status: "completed", amount: 0 })).toEqual(["refunded"]);
    expect(orderTransitions({ status: "not_paid", amount: 0 })).toEqual(["paid", "cancelled"]);
  });
});
