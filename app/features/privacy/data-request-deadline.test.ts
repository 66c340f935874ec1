import { describe, expect, it } from "vitest";
import { dataRequestStatus, responseDeadline } from "./data-request-deadline";

describe("responseDeadline", () => {
  it("is one calendar month after the day the request arrived", () => {
    expect(responseDeadline("2025-03-21")).toBe("2025-04-21");
    expect(responseDeadline("2025-12-15")).toBe("2026-01-15");
  });

  it("falls on the month's last day when the next month is shorter", () => {
    expect(responseDeadline("2025-01-31")).toBe("2025-02-28");
    expect(responseDeadline("2024-01-31")).toBe("2024-02-29");
  });
});

describe("dataRequestStatus", () => {
  const open = { receivedOn: "2025-03-21", completedAt: null };

  it("is open up to and including the deadline day, overdue the day after", () => {
    expect(dataRequestStatus(open, "2025-03-21")).toBe("open");
    expect(dataRequestStatus(open, "2025-04-21")).toBe("open");
    expect(dataRequestStatus(open, "2025-04-22")).toBe("overdue");
  });

  it("is done once answered, however late", () => {
    expect(dataRequestStatus({ ...open, completedAt: new Date("2025-05-01T10:00:00Z") }, "2025-06-01")).toBe("done");
  });
});
