import { describe, expect, it } from "vitest";
import { formatPeriod } from "~/lib/format-period";
import { RETENTION } from "./retention";

describe("RETENTION", () => {
  it("holds the periods the terms and the privacy policy promise", () => {
    expect(formatPeriod(RETENTION.unpaidOrderHours, "hour")).toBe("48 hours");
    expect(formatPeriod(RETENTION.customerDataYears, "year")).toBe("6 years");
    expect(formatPeriod(RETENTION.dataRequestResponseMonths, "month")).toBe("one month");
  });
});
