import { randomUUID } from "node:crypto";
import type { BookingInput } from "~/features/booking/schema";

// The booking form's fields, for the integration tests and for E2E tests that post it as a script would.

/** A day comfortably in the future, "YYYY-MM-DD". */
export function futureDate(daysAhead = 30): string {
  return new Date(Date.now() + daysAhead * 86_400_000).toISOString().slice(0, 10);
}

export function bookingInput(overrides: Partial<BookingInput> = {}): BookingInput {
  return {
    firstName: "Ann",
    lastName: "Lee",
    email: "ann@example.com",
    phone: "+31 20 123 4567",
    airport: "Paris Orly - ORY",
    flightDate: futureDate(),
    adults: 2,
    children: 1,
    idempotencyKey: randomUUID(),
    ...overrides,
  };
}

/** The booking form as a browser posts it: every value a string. */
export function bookingFormFields(overrides: Record<string, string> = {}): Record<string, string> {
  const { phone, adults, children, ...rest } = bookingInput();
  return { ...rest, phone: phone ?? "", adults: String(adults), children: String(children), ...overrides };
}
