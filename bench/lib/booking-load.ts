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

/**
 * The autocannon request that books, with a fresh body each time; every booking the server
 * acknowledges (a redirect to its payment page) is added to `acknowledged` by order id.
 */
export function bookingRequest(acknowledged: Set<string>): autocannon.Request {
  return {
    method: "POST",
    path: "/fast-track-form",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    setupRequest: (request) => ({ ...request, body: bookingBody() }),
    onResponse: (status, _body, _context, headers) => {
      const location = (headers as Record<string, string | undefined>)["location"];
      const orderId = status === 302 ? location?.match(PAYMENT_PATH)?.[1] : undefined;
      if (orderId) acknowledged.add(orderId);
    },
  };
}
