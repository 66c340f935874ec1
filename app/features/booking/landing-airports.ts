import { BOOKING_AIRPORTS } from "~/features/booking/airports";

/**
 * The airports the /fast-track landing page offers in its dropdown (the booking form's
 * airports but Lisbon). The choice only invites the visitor in; it is not passed on to the form.
 */
export const LANDING_AIRPORTS = BOOKING_AIRPORTS.filter((airport) => airport.code !== "LIS");
