import { eq, sql } from "drizzle-orm";
import { isEmbedded, type Database } from "~/db/client.server";
import { onEachDatabase, preparedStatement } from "~/db/prepared-statement.server";
import { StatementGroup } from "~/db/statement-group.server";
import { customers, orderEvents, orders, type CurrencyCode } from "~/db/schema";
import { countBooking } from "~/platform/observability/metrics.server";
import { siteConfig } from "../../../site.config";
import { newOrderNumber } from "./order-number";
import { CUSTOMER_ACTOR } from "~/lib/actor";
import type { OrderDetails } from "./order-details";
import { bookingAmount } from "./pricing";
import { claimFreeAccesses } from "~/features/memberships/fast-track-allowance.server";
import type { BookingInput } from "./schema";
import { isUuid } from "~/lib/uuid";

export const FAST_TRACK_SERVICE = "Fast Track";

const NOT_SPECIFIED = "Not specified";

export interface BookingRequest {
  booking: BookingInput;
  /** The visitor's chosen currency (their cookie), never a value from the form. */
  currency: CurrencyCode;
  /** The signed-in user, or null for a guest. */
  userId: string | null;
  /** The signed-in user's own address: a booking under it spends their free accesses (ADR 029). */
  accountEmail?: string | null;
}

/**
 * The customer's notes: airport, flight date, e-mail and phone, one per line.
 */
export function bookingNotes({
  airport,
  flightDate,
  email,
  phone,
}: Pick<BookingInput, "airport" | "flightDate" | "email" | "phone">): string {
  return [
    `Airport: ${airport}`,
    `Flight date: ${flightDate || NOT_SPECIFIED}`,
    notesEmailLine(email),
    `Phone: ${phone || NOT_SPECIFIED}`,
  ].join("\n");
}

/** The line of a customer's notes that holds their e-mail address. */
function notesEmailLine(email: string): string {
  return `Email: ${email}`;
}

const value = sql.placeholder;

const insertBooking = preparedStatement<{ id: string }>(
  "create_booking",
  sql`
    with customer as (
      insert into ${customers} (user_id, full_name, email, notes)
      values (${value("userId")}::text, ${value("name")}::text, ${value("email")}::text, ${value("notes")}::text)
      on conflict (email) do update set full_name = excluded.full_name, notes = excluded.notes,
        user_id = coalesce(excluded.user_id, ${customers.userId})
      returning id
    ), new_order as (
      insert into ${orders} (customer_id, order_number, amount, currency, status, service_type, business, site,
        idempotency_key, flight_date, airport, adults, children, allowance_membership_id, free_accesses, created_at)
      select customer.id, ${value("orderNumber")}, ${value("amount")}, ${value("currency")}, 'not_paid',
        ${FAST_TRACK_SERVICE}, ${FAST_TRACK_SERVICE}, ${siteConfig.company.name}, ${value("idempotencyKey")},
        ${value("flightDate")}::date, ${value("airport")}::text, ${value("adults")}::integer, ${value("children")}::integer,
        ${value("allowanceMembershipId")}::uuid, ${value("freeAccesses")}::integer, ${value("createdAt")}::timestamptz
      from customer
      on conflict (idempotency_key) do nothing
      returning id
    ), first_event as (
      insert into ${orderEvents} (order_id, from_status, to_status, actor_user_id, actor_label)
      select id, null, 'not_paid', ${value("userId")}::text, ${CUSTOMER_ACTOR.label}::text from new_order
    )
    select id from new_order`,
);

type NewBooking = Parameters<typeof insertBooking>[1] & { email: string; idempotencyKey: string };

/** The columns of `insertBooking`'s values, in the order `insertBookings` takes them as arrays. */
const BOOKING_COLUMNS = [
  "userId",
  "name",
  "email",
  "notes",
  "orderNumber",
  "amount",
  "currency",
  "idempotencyKey",
  "flightDate",
  "airport",
  "adults",
  "children",
  "allowanceMembershipId",
  "freeAccesses",
  "createdAt",
] as const;

/**
 * `insertBooking` for several bookings in one statement, each with its own address and key (a
 * customer row cannot be updated twice in one statement). Customers are written in address order,
 * as one at a time would lock them. Returns the order id of each booking whose key was new.
 */
const insertBookings = preparedStatement<{ id: string; idempotencyKey: string }>(
  "create_bookings",
  sql`
    with booking as (
      select * from unnest(${value("userId")}::text[], ${value("name")}::text[], ${value("email")}::text[],
        ${value("notes")}::text[], ${value("orderNumber")}::text[], ${value("amount")}::integer[],
        ${value("currency")}::text[], ${value("idempotencyKey")}::text[], ${value("flightDate")}::text[],
        ${value("airport")}::text[], ${value("adults")}::integer[], ${value("children")}::integer[],
        ${value("allowanceMembershipId")}::text[], ${value("freeAccesses")}::integer[], ${value("createdAt")}::text[])
        as booking (user_id, full_name, email, notes, order_number, amount, currency, idempotency_key, flight_date,
          airport, adults, children, allowance_membership_id, free_accesses, created_at)
    ), customer as (
      insert into ${customers} (user_id, full_name, email, notes)
      select user_id, full_name, email, notes from booking order by email
      on conflict (email) do update set full_name = excluded.full_name, notes = excluded.notes,
        user_id = coalesce(excluded.user_id, ${customers.userId})
      returning id, email
    ), new_order as (
      insert into ${orders} (customer_id, order_number, amount, currency, status, service_type, business, site,
        idempotency_key, flight_date, airport, adults, children, allowance_membership_id, free_accesses, created_at)
      select customer.id, booking.order_number, booking.amount, booking.currency, 'not_paid',
        ${FAST_TRACK_SERVICE}, ${FAST_TRACK_SERVICE}, ${siteConfig.company.name}, booking.idempotency_key,
        booking.flight_date::date, booking.airport, booking.adults, booking.children,
        booking.allowance_membership_id::uuid, booking.free_accesses, booking.created_at::timestamptz
      from booking join customer on customer.email = booking.email
      on conflict (idempotency_key) do nothing
      returning id, idempotency_key
    ), first_event as (
      insert into ${orderEvents} (order_id, from_status, to_status, actor_user_id, actor_label)
      select new_order.id, null, 'not_paid', booking.user_id, ${CUSTOMER_ACTOR.label}::text
      from new_order join booking on booking.idempotency_key = new_order.idempotency_key
    )
    select id, idempotency_key as "idempotencyKey" from new_order`,
);

/**
 * On the embedded database, the bookings that arrive while one is being stored go together in the
 * next statement (group commit, ADR 021): its one backend runs a statement at a time, and each
 * statement costs a round trip between the threads, a commit and the orders' statement triggers.
 */
const bookingGroups = new WeakMap<Database, StatementGroup<NewBooking, { id: string } | undefined>>();

function bookingGroup(db: Database) {
  let group = bookingGroups.get(db);
  if (!group) {
    group = new StatementGroup({
      one: async (booking) => (await insertBooking(db, booking))[0],
      many: async (bookings) => {
        const columns = Object.fromEntries(
          BOOKING_COLUMNS.map((column) => [column, bookings.map((booking) => booking[column])]),
        );
        const stored = new Map(
          (await insertBookings(db, columns)).map((row) => [row.idempotencyKey, { id: row.id }] as const),
        );
        return bookings.map((booking) => stored.get(booking.idempotencyKey));
      },
      fits: (booking, others) =>
        others.every((other) => other.email !== booking.email && other.idempotencyKey !== booking.idempotencyKey),
      maxItems: 100,
    });
    bookingGroups.set(db, group);
  }
  return group;
}

/**
 * Creates the 'not_paid' order and its first history entry, pricing it from site.config.ts, and the
 * customer of its address, or updates that customer's name, notes and account when the address has
 * booked before (one customer per address, ADR 027): one prepared statement, one round trip, all or
 * nothing (on the embedded database, shared with the bookings arriving at the same time). The
 * form's idempotency key makes a repeated submission (a double click, a retry, ten at once) return
 * the order the first one created; it only writes the customer's same details again.
 */
export async function createBooking(
  db: Database,
  { booking, currency, userId, accountEmail }: BookingRequest,
  now: Date = new Date(),
): Promise<{ orderId: string }> {
  const email = booking.email.toLowerCase();
  // Only a member signed in, booking under their own address, spends their free accesses (ADR 029).
  const order =
    userId && accountEmail?.toLowerCase() === email
      ? await db.transaction(async (tx) => {
          const claimed = await claimFreeAccesses(tx, { email, passengers: booking, now });
          return insertOrder(tx, { booking, currency, userId, email, claimed, now });
        })
      : await insertOrder(db, { booking, currency, userId, email, claimed: null, now });
  if (order) {
    countBooking();
    return { orderId: order.id };
  }
  // A submission with the same key came first: its order is this one's.
  const existing = await findOrderIdByIdempotencyKey(db, booking.idempotencyKey);
  if (!existing) throw new Error("The order of a repeated submission vanished");
  return existing;
}

/** The order, priced here: the passengers the member's accesses cover are not charged. */
async function insertOrder(
  db: Database,
  {
    booking,
    currency,
    userId,
    email,
    claimed,
    now,
  }: Omit<BookingRequest, "accountEmail"> & {
    email: string;
    claimed: Awaited<ReturnType<typeof claimFreeAccesses>>;
    now: Date;
  },
) {
  const free = claimed?.free ?? { adults: 0, children: 0 };
  const values: NewBooking = {
    orderNumber: newOrderNumber(now),
    amount: bookingAmount({ adults: booking.adults - free.adults, children: booking.children - free.children }),
    allowanceMembershipId: claimed?.membershipId ?? null,
    freeAccesses: free.adults + free.children,
    createdAt: now.toISOString(),
    currency,
    idempotencyKey: booking.idempotencyKey,
    flightDate: booking.flightDate,
    airport: booking.airport,
    adults: booking.adults,
    children: booking.children,
    userId,
    name: `${booking.firstName} ${booking.lastName}`,
    email,
    notes: bookingNotes(booking),
  };
  if (isEmbedded(db)) return bookingGroup(db).add(values);
  const [order] = await insertBooking(db, values);
  return order;
}

async function findOrderIdByIdempotencyKey(db: Database, idempotencyKey: string) {
  const [order] = await db.select({ orderId: orders.id }).from(orders).where(eq(orders.idempotencyKey, idempotencyKey));
  return order;
}

/** The order with this id, or null when there is none (or the id is not even a uuid). */
export async function findOrder(db: Database, orderId: string): Promise<OrderDetails | null> {
  if (!isUuid(orderId)) return null;
  const [row] = await findOrderQuery(db).execute({ orderId });
  return row ?? null;
}

/** The columns `findOrder` reads: an order with its customer's name and address. */
export const orderDetailsColumns = {
  id: orders.id,
  orderNumber: orders.orderNumber,
  amount: orders.amount,
  currency: orders.currency,
  status: orders.status,
  airport: orders.airport,
  flightDate: orders.flightDate,
  adults: orders.adults,
  children: orders.children,
  freeAccesses: orders.freeAccesses,
  customerName: customers.fullName,
  email: customers.email,
  voucherShortCode: orders.voucherShortCode,
};

/** `findOrder`'s statement, prepared once per database (every payment and order page reads it). */
const findOrderQuery = onEachDatabase((db) =>
  db
    .select(orderDetailsColumns)
    .from(orders)
    .innerJoin(customers, eq(customers.id, orders.customerId))
    .where(eq(orders.id, sql.placeholder("orderId")))
    .prepare("find_order"),
);
