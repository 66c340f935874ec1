function isoDayFromNow(days: number) {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** Client addresses already handed out: each wrk run starts its travellers after the last run's. */
let clientsUsed = 0;
const CLIENTS_PER_RUN = 1 << 20;

/**
 * Lua for wrk (bench/lib/load.ts) defining `booking_request()`, a valid booking form that differs
 * on every call (its idempotency key, a UUID made of the run's id and a counter, and its e-mail),
 * and `booking_response(status, headers)`, which collects the order id of every booking the server
 * acknowledged (a redirect to its payment page).
 *
 * Each booking comes from another traveller's address, through the proxy the bench server trusts
 * (TRUST_PROXY=loopback): bookings come from many people, each within the booking form's rate limit,
 * and every request is still counted against its limits in the database.
 */
export function bookingLua(): string {
  const firstClient = clientsUsed;
  clientsUsed += CLIENTS_PER_RUN;
  return `
local bookings = 0
function booking_request()
  bookings = bookings + 1
  local key = string.format("%s-%04x-4000-8000-%012x", run_id, thread_index, bookings)
  local client = (${firstClient} + thread_index * 65536 + bookings) % 16777216
  local address = string.format("10.%d.%d.%d", math.floor(client / 65536), math.floor(client / 256) % 256, client % 256)
  local body = "firstName=Bench&lastName=Traveller&email=bench-" .. key .. "%40example.com"
    .. "&phone=%2B31+20+123+4567&airport=Paris+Orly+-+ORY&flightDate=${isoDayFromNow(30)}"
    .. "&adults=2&children=1&idempotencyKey=" .. key
  return wrk.format("POST", "/fast-track-form", {
    ["Content-Type"] = "application/x-www-form-urlencoded",
    ["X-Forwarded-For"] = address,
  }, body)
end

function booking_response(status, headers)
  if status ~= 302 then return end
  local id = (headers["location"] or headers["Location"] or ""):match("/fast%-track%-payment/([0-9a-f%-]+)$")
  if id then collect(id) end
end
`;
}

/** wrk's script for bookings alone. */
export const bookingsOnlyLua = () => `${bookingLua()}
request = booking_request
on_response = booking_response
`;
