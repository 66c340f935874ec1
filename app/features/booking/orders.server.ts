import { eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { customers, orders, type CurrencyCode } from "~/db/schema";
import { siteConfig } from "../../../site.config";
import { newOrderNumber } from "./order-number";
import { CUSTOMER_ACTOR, recordOrderCreated } from "./order-status.server";
import type { OrderDetails } from "./order-details";
import { bookingAmount } from "./pricing";
import type { BookingForm } from "./schema";

export const FAST_TRACK_SERVICE = "Fast Track";

const NOT_SPECIFIED = "Not specified";

export interface BookingRequest {
  booking: BookingForm;
  /** The visitor's chosen currency (their cookie), never a value from the form. */
  currency: CurrencyCode;
  /** The signed-in user, or null for a guest. */
  userId: string | null;
}

/**
 * The customer's notes (spec §3): airport, flight date, e-mail and phone, one per line.
 */
export function bookingNotes({
  airport,
  flightDate,
  email,
  phone,
}: Pick<BookingForm, "airport" | "flightDate" | "email" | "phone">): string {
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

class RepeatedSubmission extends Error {}

/**
 * Creates the customer and its 'Not Paid' order in one transaction, pricing it from site.config.ts.
 * The form's idempotency key makes a repeated submission (a double click, a retry, ten at once)
 * return the order the first one created instead of a second one.
 */
export async function createBooking(
  db: Database,
  { booking, currency, userId }: BookingRequest,
  now: Date = new Date(),
): Promise<{ orderId: string }> {
  try {
    // No read first: the idempotency key's unique index turns a repeated submission into a
    // conflict below, so a new booking costs its writes only.
    return await db.transaction(async (tx) => {
      const [customer] = await tx
        .insert(customers)
        .values({
          userId,
          companyName: `${booking.firstName} ${booking.lastName}`,
          email: booking.email.toLowerCase(),
          notes: bookingNotes(booking),
        })
        .returning({ id: customers.id });
      const [order] = await tx
        .insert(orders)
        .values({
          orderNumber: newOrderNumber(now),
          customerId: customer!.id,
          amount: bookingAmount(booking),
          currency,
          status: "Not Paid",
          serviceType: FAST_TRACK_SERVICE,
          business: FAST_TRACK_SERVICE,
          site: siteConfig.company.name,
          idempotencyKey: booking.idempotencyKey,
          flightDate: booking.flightDate,
          airport: booking.airport,
          adults: booking.adults,
          children: booking.children,
        })
        .onConflictDoNothing({ target: orders.idempotencyKey })
        .returning({ id: orders.id });
      // A submission with the same key came first: undo this customer, use its order.
      if (!order) throw new RepeatedSubmission();
      await recordOrderCreated(tx, order.id, { ...CUSTOMER_ACTOR, userId });
      return { orderId: order.id };
    });
  } catch (error) {
    if (!(error instanceof RepeatedSubmission)) throw error;
    const existing = await findOrderIdByIdempotencyKey(db, booking.idempotencyKey);
    if (!existing) throw new Error("The order of a repeated submission vanished", { cause: error });
    return existing;
  }
}

async function findOrderIdByIdempotencyKey(db: Database, idempotencyKey: string) {
  const [order] = await db.select({ orderId: orders.id }).from(orders).where(eq(orders.idempotencyKey, idempotencyKey));
  return order;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The order with this id, or null when there is none (or the id is not even a uuid). */
export async function findOrder(db: Database, orderId: string): Promise<OrderDetails | null> {
  if (!UUID.test(orderId)) return null;
  const [row] = await db
    .select({
      id: orders.id,
      orderNumber: orders.orderNumber,
      amount: orders.amount,
      currency: orders.currency,
      status: orders.status,
      airport: orders.airport,
      flightDate: orders.flightDate,
      adults: orders.adults,
      children: orders.children,
      customerName: customers.companyName,
      email: customers.email,
    })
    .from(orders)
    .innerJoin(customers, eq(customers.id, orders.customerId))
    .where(eq(orders.id, orderId));
  return row ?? null;
}
