import { describe, expect, it } from "vitest";
import { describePassengers } from "./passengers";
import { formatAmount } from "~/lib/currency";
import { bookingAmount, trialNote } from "./pricing";

describe("bookingAmount", () => {
  it("is adults x 11 + children x 11, in minor units", () => {
    expect(bookingAmount({ adults: 2, children: 1 })).toBe(3300);
    expect(bookingAmount({ adults: 1, children: 0 })).toBe(1100);
    expect(bookingAmount({ adults: 10, children: 10 })).toBe(22000);
  });
});

describe("formatAmount", () => {
  it("shows minor units as a price in the order's currency", () => {
    expect(formatAmount(3300, "EUR")).toBe("€33");
    expect(formatAmount(0, "GBP")).toBe("£0");
    expect(formatAmount(550, "USD")).toBe("$5.50");
  });
});

describe("trialNote", () => {
  it("names the trial and the quarterly price after it", () => {
    expect(trialNote("EUR")).toContain("3-day free trial");
    expect(trialNote("EUR")).toContain("then €49 every quarter");
  });
});

describe("describePassengers", () => {
  it("names the children only when there are some", () => {
    expect(describePassengers({ adults: 1, children: 0 })).toBe("1 adult");
    expect(describePassengers({ adults: 2, children: 1 })).toBe("2 adults, 1 child");
    expect(describePassengers({ adults: 3, children: 4 })).toBe("3 adults, 4 children");
  });
});
