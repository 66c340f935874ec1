import { randomUUID } from "node:crypto";
import type autocannon from "autocannon";

const PAYMENT_PATH = /\/fast-track-payment\/([0-9a-f-]{36})$/;

function isoDayFromNow(days: number) {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** A valid booking form, different on every call (its idempotency key and e-mail). */
export function bookingBody(): string {
  const key = randomUUID();
  return new URLSearchParams({
    firstName: "Bench",
    lastName: "Traveller",
    email: `bench-${key}@example.com`,
    phone: "+31 20 123 4567",
    airport: "Paris Orly - ORY",
    flightDate: isoDayFromNow(30),
    adults: "2",
    children: "1",
    idempotencyKey: key,
  }).toString();
}

let clients = 0;

/**
 * The address of another traveller: bookings come from many people, each within the booking form's
 * rate limit, through the proxy the bench server trusts (TRUST_PROXY=loopback). Every request is
 * still counted against its limits in the database.
 */
function nextClientAddress(): string {
  clients += 1;
  return `10.${(clients >> 16) & 255}.${(clients >> 8) & 255}.${clients & 255}`;
}

/**
 * The autocannon request that books, with a fresh body and client address each time; every booking
 * the server acknowledges (a redirect to its payment page) is added to `acknowledged` by order id.
 */
export function bookingRequest(acknowledged: Set<string>): autocannon.Request {
  return {
    method: "POST",
    path: "/fast-track-form",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    setupRequest: (request) => ({
      ...request,
      body: bookingBody(),
      headers: { ...request.headers, "x-forwarded-for": nextClientAddress() },
    }),
    onResponse: (status, _body, _context, headers) => {
      const location = (headers as Record<string, string | undefined>)["location"];
      const orderId = status === 302 ? location?.match(PAYMENT_PATH)?.[1] : undefined;
      if (orderId) acknowledged.add(orderId);
    },
  };
}
