import { describe, expect, it } from "vitest";
import { bucketLabel, bucketStart, periodBuckets } from "./statistics-buckets";

describe("statistics buckets", () => {
  it("start on the day, on the week's Monday, on the month's 1st, as date_trunc does", () => {
    expect(bucketStart("2026-03-01", "day")).toBe("2026-03-01");
    expect(bucketStart("2026-03-01", "week")).toBe("2026-02-23"); // a Sunday
    expect(bucketStart("2026-03-02", "week")).toBe("2026-03-02"); // a Monday
    expect(bucketStart("2026-03-31", "month")).toBe("2026-03-01");
  });

  it("cover the whole period, across a leap day and a year's end", () => {
    expect(periodBuckets({ from: "2024-02-28", to: "2024-03-01", granularity: "day" })).toEqual([
      "2024-02-28",
      "2024-02-29",
      "2024-03-01",
    ]);
    expect(periodBuckets({ from: "2025-12-30", to: "2026-01-06", granularity: "week" })).toEqual([
      "2025-12-29",
      "2026-01-05",
    ]);
    expect(periodBuckets({ from: "2025-11-15", to: "2026-02-01", granularity: "month" })).toEqual([
      "2025-11-01",
      "2025-12-01",
      "2026-01-01",
      "2026-02-01",
    ]);
  });

  it("are named in French", () => {
    expect(bucketLabel("2026-03-21", "day")).toBe("21/03/2026");
    expect(bucketLabel("2026-03-16", "week")).toBe("Semaine du 16/03/2026");
    expect(bucketLabel("2026-08-01", "month")).toBe("août 2026");
  });
});
