import { describe, expect, it } from "vitest";
import { bookingPageUrl, flightDayCalendar } from "./flight-day-calendar";

const event = {
  orderNumber: "FT-1795000000123-ABCDEF",
  flightDate: "2030-12-31",
  airport: "Paris Orly - ORY; Terminal 1, Hall A",
  voucherShortCode: "K7QM-3XPA-TW",
  bookingUrl: bookingPageUrl("https://www.jetlane.example", "0b8f5c1e-1d2a-4c3b-9e8f-7a6b5c4d3e2f"),
};

/** Unfolds the calendar back into its logical lines. */
const unfold = (calendar: string) => calendar.replace(/\r\n /g, "").split("\r\n");

describe("flightDayCalendar", () => {
  const calendar = flightDayCalendar(event, new Date("2030-11-24T15:04:05.678Z"));

  it("is one all-day event on the flight day, with a stable UID and a UTC DTSTAMP", () => {
    const lines = unfold(calendar);
    expect(lines).toContain("DTSTART;VALUE=DATE:20301231");
    expect(lines).toContain("DTEND;VALUE=DATE:20310101");
    expect(lines).toContain("UID:FT-1795000000123-ABCDEF@fasttrack.jetlane.example");
    expect(lines).toContain("DTSTAMP:20301124T150405Z");
    expect(lines.filter((line) => line === "BEGIN:VEVENT")).toHaveLength(1);
  });

  it("escapes TEXT values and names the airport, the booking and the lane", () => {
    const lines = unfold(calendar);
    expect(lines).toContain("LOCATION:Paris Orly - ORY\\; Terminal 1\\, Hall A");
    const description = lines.find((line) => line.startsWith("DESCRIPTION:"))!;
    expect(description).toContain("Booking FT-1795000000123-ABCDEF\\, voucher code K7QM-3XPA-TW.\\n");
    expect(description).toContain("fast-track lane with your boarding pass");
    expect(description).toContain(
      "Your booking: https://www.jetlane.example/fast-track-payment/0b8f5c1e-1d2a-4c3b-9e8f-7a6b5c4d3e2f",
    );
  });

  it("ends every line with CRLF and folds none longer than 75 octets", () => {
    expect(calendar.endsWith("END:VCALENDAR\r\n")).toBe(true);
    expect(calendar.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    for (const line of calendar.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
  });

  it("never folds inside a multi-byte character", () => {
    const folded = flightDayCalendar({ ...event, airport: "Zürich – Flughafen ".repeat(8) });
    expect(unfold(folded).find((line) => line.startsWith("LOCATION:"))).toBe(
      `LOCATION:${"Zürich – Flughafen ".repeat(8)}`,
    );
  });
});
