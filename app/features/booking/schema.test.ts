import { describe, expect, it } from "vitest";
import { AIRPORT_OPTIONS, BOOKING_AIRPORTS } from "./airports";
import { bookingSchema } from "./schema";

const now = new Date("2026-05-15T12:00:00Z");

const valid = {
  firstName: " Ann ",
  lastName: "Lee",
  email: "ann@example.com",
  phone: "+31 20 123 4567",
  airport: "Paris Orly - ORY",
  flightDate: "2026-06-01",
  adults: 2,
  children: 1,
  idempotencyKey: "0d4c9a7e-5a57-4b5e-9c0b-0a0b0c0d0e0f",
};

function problems(input: Record<string, unknown>) {
  const result = bookingSchema(() => now).safeParse({ ...valid, ...input });
  return result.success
    ? {}
    : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join("."), issue.message]));
}

describe("the booking airports", () => {
  it("are the eleven the form offers, stored as '{airport name} - {code}'", () => {
    expect(BOOKING_AIRPORTS.map((airport) => airport.code)).toEqual([
      "CDG",
      "ORY",
      "LHR",
      "AMS",
      "FRA",
      "MAD",
      "BCN",
      "FCO",
      "DXB",
      "JFK",
      "LIS",
    ]);
    expect(AIRPORT_OPTIONS[0]).toBe("Paris Charles de Gaulle - CDG");
    expect(AIRPORT_OPTIONS.at(-1)).toBe("Lisbon Humberto Delgado - LIS");
  });
});

describe("bookingSchema", () => {
  it("accepts a complete booking, trimming the names", () => {
    expect(bookingSchema(() => now).parse(valid)).toEqual({ ...valid, firstName: "Ann" });
  });

  it("lets the phone be left out and the children default to none", () => {
    const { phone: _phone, children: _children, ...rest } = valid;
    const booking = bookingSchema(() => now).parse(rest);
    expect(booking.phone).toBeUndefined();
    expect(booking.children).toBe(0);
  });

  it("requires the names, e-mail, airport and flight date", () => {
    expect(
      problems({
        firstName: undefined,
        lastName: "  ",
        email: undefined,
        airport: undefined,
        flightDate: undefined,
        adults: undefined,
      }),
    ).toEqual({
      firstName: "First name is required",
      lastName: "Last name is required",
      email: "Email is required",
      airport: "Please select an airport",
      flightDate: "Please select a flight date",
      adults: "Adults must be between 1 and 10",
    });
  });

  it("refuses a bad e-mail, an unknown airport and a phone with letters", () => {
    expect(problems({ email: "ann@" })).toEqual({ email: "Invalid email address" });
    expect(problems({ airport: "Paris Orly" })).toEqual({ airport: "Please select an airport" });
    expect(problems({ airport: "Nowhere - XXX" })).toEqual({ airport: "Please select an airport" });
    expect(problems({ phone: "call me" })).toEqual({
      phone: "Phone number may contain only digits, spaces and + ( ) . -",
    });
  });

  it("keeps adults within 1-10 and children within 0-10", () => {
    expect(problems({ adults: 10, children: 10 })).toEqual({});
    expect(problems({ adults: 0 })).toEqual({ adults: "Adults must be between 1 and 10" });
    expect(problems({ adults: 11 })).toEqual({ adults: "Adults must be between 1 and 10" });
    expect(problems({ adults: 1.5 })).toEqual({ adults: "Adults must be between 1 and 10" });
    expect(problems({ children: -1 })).toEqual({ children: "Children must be between 0 and 10" });
    expect(problems({ children: 11 })).toEqual({ children: "Children must be between 0 and 10" });
  });

  it("refuses a past flight date and a day that does not exist", () => {
    expect(problems({ flightDate: "2026-05-15" })).toEqual({});
    expect(problems({ flightDate: "2026-05-13" })).toEqual({ flightDate: "The flight date cannot be in the past" });
    expect(problems({ flightDate: "2026-02-30" })).toEqual({ flightDate: "Please select a flight date" });
    expect(problems({ flightDate: "15/06/2026" })).toEqual({ flightDate: "Please select a flight date" });
  });

  it("caps the lengths of the texts", () => {
    expect(problems({ firstName: "a".repeat(101) })).toEqual({
      firstName: "First name must be at most 100 characters",
    });
    expect(problems({ phone: "1".repeat(21) })).toEqual({ phone: "Phone number must be at most 20 characters" });
  });

  it("wants the form's idempotency key", () => {
    expect(problems({ idempotencyKey: "again" })).toEqual({
      idempotencyKey: "This form has expired. Please reload the page and try again.",
    });
  });
});
