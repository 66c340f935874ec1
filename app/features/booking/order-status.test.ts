import { describe, expect, it } from "vitest";
import { ORDER_STATUSES } from "~/db/schema";
import { canTransition } from "./order-status";

describe("the order state machine", () => {
  it("allows exactly Not Paid -> paid -> completed, Not Paid -> cancelled, and paid or completed -> refunded", () => {
    const allowed = ORDER_STATUSES.flatMap((from) =>
      ORDER_STATUSES.filter((to) => canTransition(from, to)).map((to) => `${from} -> ${to}`),
    );
    expect(allowed.sort()).toEqual([
      "Not Paid -> cancelled",
      "Not Paid -> paid",
      "completed -> refunded",
      "paid -> completed",
      "paid -> refunded",
    ]);
  });
});
