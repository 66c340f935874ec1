import { z } from "~/lib/zod";
import { AIRPORT_OPTIONS } from "./airports";
import { earliestFlightDate, isIsoDate } from "./flight-date";
import { ADULTS_RANGE, CHILDREN_RANGE } from "./passengers";

const NAME_MAX = 100;
const EMAIL_MAX = 255;
const PHONE_MAX = 20;

function passengerCount(label: string, { min, max }: { min: number; max: number }) {
  const message = `${label} must be between ${min} and ${max}`;
  return z.number({ error: message }).int(message).min(min, message).max(max, message);
}

/**
 * The booking form, validated in the browser and again on the server. `now` tells, at
 * each validation, which flight dates count as past (see flight-date.ts).
 */
export function bookingSchema(now: () => Date = () => new Date()) {
  return z.object({
    firstName: z
      .string({ error: "First name is required" })
      .trim()
      .min(1, "First name is required")
      .max(NAME_MAX, `First name must be at most ${NAME_MAX} characters`),
    lastName: z
      .string({ error: "Last name is required" })
      .trim()
      .min(1, "Last name is required")
      .max(NAME_MAX, `Last name must be at most ${NAME_MAX} characters`),
    email: z
      .string({ error: "Email is required" })
      .trim()
      .max(EMAIL_MAX, `Email must be at most ${EMAIL_MAX} characters`)
      .pipe(z.email("Invalid email address")),
    phone: z
      .string()
      .trim()
      .max(PHONE_MAX, `Phone number must be at most ${PHONE_MAX} characters`)
      .regex(/^\+?[\d\s().-]*$/, "Phone number may contain only digits, spaces and + ( ) . -")
      .optional(),
    airport: z.enum(AIRPORT_OPTIONS, { error: "Please select an airport" }),
    flightDate: z
      .string({ error: "Please select a flight date" })
      .refine(isIsoDate, { message: "Please select a flight date", abort: true })
      .refine((value) => value >= earliestFlightDate(now()), "The flight date cannot be in the past"),
    adults: passengerCount("Adults", ADULTS_RANGE),
    children: passengerCount("Children", CHILDREN_RANGE).default(CHILDREN_RANGE.min),
    idempotencyKey: z.uuid("This form has expired. Please reload the page and try again."),
  });
}

/** Built once: zod schemas are costly to build and this one reads the clock as it validates. */
export const BOOKING_SCHEMA = bookingSchema();

export type BookingInput = z.infer<typeof BOOKING_SCHEMA>;
