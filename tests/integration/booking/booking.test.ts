import { eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { customers, orderEvents, orders, user, type CurrencyCode } from "~/db/schema";
import { bookingNotes, createBooking } from "~/features/booking/orders.server";
import { logger } from "~/logger.server";
import { action, loader } from "~/routes/fast-track-form";
import {
  answer,
  bookingFormFields,
  bookingInput,
  postRequest,
  rowCounts,
  bookingTestDatabase,
} from "../../support/integration/booking-helpers";
import { toastOf } from "../../support/integration/requests";
import { routeArgs } from "../../support/integration/route-result";
import { testDatabaseKind } from "../../support/test-database";

const db = bookingTestDatabase();

const nothingStored = {
  customers: 0,
  orders: 0,
  order_events: 0,
  payments: 0,
  outbox: 0,
  memberships: 0,
  membership_events: 0,
  invoices: 0,
  refunds: 0,
  hosted_payments: 0,
  provider_events: 0,
  withdrawals: 0,
};

describe(`createBooking on ${testDatabaseKind()}`, () => {
  it("creates the customer and its 'not_paid' order in one go, priced from site.config.ts", async () => {
    const booking = bookingInput({ adults: 2, children: 1 });
    const { orderId } = await createBooking(db(), { booking, currency: "EUR", userId: null });

    const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({
      amount: 3300,
      currency: "EUR",
      status: "not_paid",
      serviceType: "Fast Track",
      business: "Fast Track",
      site: "Jetlane",
      idempotencyKey: booking.idempotencyKey,
      flightDate: booking.flightDate,
      airport: "Paris Orly - ORY",
      adults: 2,
      children: 1,
    });
    expect(order!.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(order!.orderNumber).toMatch(/^FT-\d{13}-[A-Z]{6}$/);

    const [customer] = await db().select().from(customers).where(eq(customers.id, order!.customerId));
    expect(customer).toMatchObject({
      userId: null,
      fullName: "Ann Lee",
      email: "ann@example.com",
      notes: `Airport: Paris Orly - ORY\nFlight date: ${booking.flightDate}\nEmail: ann@example.com\nPhone: +31 20 123 4567`,
    });

    const events = await db().select().from(orderEvents).where(eq(orderEvents.orderId, orderId));
    expect(events).toMatchObject([
      { fromStatus: null, toStatus: "not_paid", actorUserId: null, actorLabel: "customer" },
    ]);
  });

  it("says 'Not specified' in the notes for a phone left out", async () => {
    const { orderId } = await createBooking(db(), {
      booking: bookingInput({ phone: undefined }),
      currency: "USD",
      userId: null,
    });
    const [row] = await db()
      .select({ notes: customers.notes })
      .from(orders)
      .innerJoin(customers, eq(customers.id, orders.customerId))
      .where(eq(orders.id, orderId));
    expect(row!.notes).toMatch(/\nPhone: Not specified$/);
  });

  it("links the customer and the order's history to a signed-in user", async () => {
    await db().insert(user).values({ id: "user-ann", name: "Ann Lee", email: "ann@example.com" });
    const { orderId } = await createBooking(db(), {
      booking: bookingInput(),
      currency: "GBP",
      userId: "user-ann",
    });
    const [row] = await db()
      .select({ userId: customers.userId })
      .from(orders)
      .innerJoin(customers, eq(customers.id, orders.customerId))
      .where(eq(orders.id, orderId));
    expect(row!.userId).toBe("user-ann");
    const [event] = await db().select().from(orderEvents).where(eq(orderEvents.orderId, orderId));
    expect(event).toMatchObject({ actorUserId: "user-ann", actorLabel: "customer" });
  });

  it("leaves no customer behind when the order insert after it fails", async () => {
    // The orders table's CHECK refuses this currency, after the customer row has been inserted.
    const unknownCurrency = "JPY" as CurrencyCode;
    await expect(
      createBooking(db(), { booking: bookingInput(), currency: unknownCurrency, userId: null }),
    ).rejects.toThrow();
    expect(await rowCounts(db())).toEqual(nothingStored);
  });

  it("makes one order of ten concurrent identical submissions", async () => {
    const booking = bookingInput();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => createBooking(db(), { booking, currency: "EUR", userId: null })),
    );
    expect(new Set(results.map((result) => result.orderId)).size).toBe(1);
    expect(await rowCounts(db())).toEqual({ ...nothingStored, customers: 1, orders: 1, order_events: 1 });
  });

  it("makes a later booking from the same address, in any case, that customer's, with the name and phone it gives", async () => {
    const first = await createBooking(db(), { booking: bookingInput(), currency: "EUR", userId: null });
    const second = await createBooking(db(), {
      booking: bookingInput({ email: "Ann@Example.COM", lastName: "Lee-Smith", phone: "+31 6 1234 5678" }),
      currency: "EUR",
      userId: null,
    });
    const owners = await db()
      .select({ customerId: orders.customerId })
      .from(orders)
      .where(sql`${orders.id} in (${first.orderId}, ${second.orderId})`);
    expect(new Set(owners.map((owner) => owner.customerId)).size).toBe(1);
    const [customer] = await db().select().from(customers);
    expect(customer).toMatchObject({ fullName: "Ann Lee-Smith", email: "ann@example.com" });
    expect(customer!.notes).toMatch(/\nPhone: \+31 6 1234 5678$/);
    expect(await rowCounts(db())).toMatchObject({ customers: 1, orders: 2, order_events: 2 });
  });

  it("keeps the account a known address's customer has when a guest books with it", async () => {
    await db().insert(user).values({ id: "user-ann-account", name: "Ann Lee", email: "ann.account@example.com" });
    await createBooking(db(), { booking: bookingInput(), currency: "EUR", userId: "user-ann-account" });
    await createBooking(db(), { booking: bookingInput(), currency: "EUR", userId: null });
    expect(await db().select({ userId: customers.userId }).from(customers)).toEqual([{ userId: "user-ann-account" }]);
  });

  it("makes one customer of ten different bookings from one address at once", async () => {
    await Promise.all(
      Array.from({ length: 10 }, () => createBooking(db(), { booking: bookingInput(), currency: "EUR", userId: null })),
    );
    expect(await rowCounts(db())).toMatchObject({ customers: 1, orders: 10, order_events: 10 });
  });

  it("stores every one of many bookings arriving together, each with its own customer, amount and event", async () => {
    // On PGlite they go together in a few statements (group commit): each must still be its own.
    const bookings = Array.from({ length: 30 }, (_, index) =>
      bookingInput({ email: `guest${index % 20}@example.com`, firstName: `Guest${index}`, adults: 1 + (index % 3) }),
    );
    // What an array literal would have to quote reaches the table as typed.
    bookings[15] = { ...bookings[15]!, lastName: 'O\'Neil "Jr", {x} \\ NULL' };
    // A repeated submission among them: its order is the first one's.
    bookings.push({ ...bookings[3]! });
    const results = await Promise.all(
      bookings.map((booking) => createBooking(db(), { booking, currency: "GBP", userId: null })),
    );
    expect(results[30]).toEqual(results[3]);
    expect(new Set(results.map((result) => result.orderId)).size).toBe(30);
    const stored = await db()
      .select({ id: orders.id, idempotencyKey: orders.idempotencyKey, amount: orders.amount, email: customers.email })
      .from(orders)
      .innerJoin(customers, eq(customers.id, orders.customerId));
    const byId = new Map(stored.map((row) => [row.id, row]));
    bookings.slice(0, 30).forEach((booking, index) => {
      const row = byId.get(results[index]!.orderId);
      expect(row).toMatchObject({ idempotencyKey: booking.idempotencyKey, email: booking.email });
    });
    const [one, three] = [byId.get(results[0]!.orderId)!, byId.get(results[2]!.orderId)!];
    expect(three.amount).toBeGreaterThan(one.amount);
    const [quoted] = await db().select().from(customers).where(eq(customers.email, bookings[15]!.email));
    expect(quoted!.fullName).toBe('Guest15 O\'Neil "Jr", {x} \\ NULL');
    expect(quoted!.notes).toBe(bookingNotes(bookings[15]!));
    expect(await rowCounts(db())).toMatchObject({ customers: 20, orders: 30, order_events: 30 });
  });

  it("fails only the booking at fault among bookings arriving together", async () => {
    const bookings = Array.from({ length: 12 }, (_, index) => bookingInput({ email: `guest${index}@example.com` }));
    const settled = await Promise.allSettled(
      bookings.map((booking, index) =>
        createBooking(db(), { booking, currency: (index === 5 ? "JPY" : "EUR") as CurrencyCode, userId: null }),
      ),
    );
    expect(settled.map((result) => result.status)).toEqual(
      bookings.map((_, index) => (index === 5 ? "rejected" : "fulfilled")),
    );
    expect(await rowCounts(db())).toMatchObject({ customers: 11, orders: 11, order_events: 11 });
  });

  it("returns the first order to a later repeat of the same submission", async () => {
    const booking = bookingInput();
    const first = await createBooking(db(), { booking, currency: "EUR", userId: null });
    const again = await createBooking(db(), { booking, currency: "EUR", userId: null });
    expect(again).toEqual(first);
    expect((await rowCounts(db())).orders).toBe(1);
  });
});

type FormResult = { result: { error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> } };

async function submitBooking(fields: Record<string, string>, cookie?: string) {
  return answer<FormResult & { toast: unknown }>(
    await action(routeArgs<Parameters<typeof action>[0]>(postRequest("/fast-track-form", fields, cookie))),
  );
}

describe(`POST /fast-track-form on ${testDatabaseKind()}`, () => {
  it("gives each form its own idempotency key", async () => {
    const visit = () =>
      loader(routeArgs<Parameters<typeof loader>[0]>(new Request("http://localhost/fast-track-form")));
    const [first, second] = await Promise.all([visit(), visit()]);
    expect(first.idempotencyKey).not.toBe(second.idempotencyKey);
  });

  it("creates the order in the visitor's cookie currency and redirects to its payment page with a toast", async () => {
    const response = await action(
      routeArgs<Parameters<typeof action>[0]>(postRequest("/fast-track-form", bookingFormFields(), "currency=GBP")),
    );
    const { status, headers } = answer(response);
    expect(status).toBe(302);
    const [order] = await db().select().from(orders);
    expect(order).toMatchObject({ currency: "GBP", amount: 3300 });
    expect(headers.get("Location")).toBe(`/fast-track-payment/${order!.id}`);
    expect(toastOf(headers)).toEqual({
      type: "success",
      title: "Success",
      description: "Your Fast Track booking has been created.",
    });
  });

  it("uses US dollars when the visitor chose no currency", async () => {
    await submitBooking(bookingFormFields());
    const [order] = await db().select({ currency: orders.currency }).from(orders);
    expect(order!.currency).toBe("USD");
  });

  it.each([
    ["a past date", { flightDate: "2020-01-01" }, "flightDate", "The flight date cannot be in the past"],
    ["11 adults", { adults: "11" }, "adults", "Adults must be between 1 and 10"],
    ["11 children", { children: "11" }, "children", "Children must be between 0 and 10"],
    ["an unknown airport", { airport: "Nowhere - XXX" }, "airport", "Please select an airport"],
    ["a missing first name", { firstName: "" }, "firstName", "First name is required"],
    ["a missing e-mail", { email: "" }, "email", "Email is required"],
    ["a missing flight date", { flightDate: "" }, "flightDate", "Please select a flight date"],
  ])("refuses %s with 400 and stores nothing", async (_case, overrides, field, message) => {
    const { status, data } = await submitBooking(bookingFormFields(overrides));
    expect(status).toBe(400);
    expect(data.result.error?.[field]).toEqual([message]);
    expect(await rowCounts(db())).toEqual(nothingStored);
  });

  it("refuses an empty form, naming every missing field", async () => {
    const { status, data } = await submitBooking({});
    expect(status).toBe(400);
    expect(Object.keys(data.result.error ?? {}).sort()).toEqual(
      ["airport", "email", "firstName", "flightDate", "idempotencyKey", "lastName", "adults"].sort(),
    );
    expect(await rowCounts(db())).toEqual(nothingStored);
  });

  it.each([
    ["an amount", { amount: "1" }],
    ["a currency", { currency: "JPY" }],
    ["a total and a currency", { total: "0", currency: "EUR" }],
  ])("refuses a form that carries %s with 400 and stores nothing", async (_case, tampered) => {
    const { status, data } = await submitBooking(bookingFormFields(tampered), "currency=EUR");
    expect(status).toBe(400);
    expect(data.result.error?.[""]?.[0]).toMatch(/^This form carried fields we do not accept/);
    for (const name of Object.keys(tampered)) expect(data.result.error?.[""]?.[0]).toContain(name);
    expect(await rowCounts(db())).toEqual(nothingStored);
  });

  it("keeps what the person typed, logs the error and leaves nothing half-written when the database fails", async () => {
    // From here on the database refuses every new order, after the customer row has been written.
    await db().execute(sql`alter table orders add constraint refuse_all_orders check (false) not valid`);
    const logged = vi.spyOn(logger, "error").mockImplementation(() => {});
    try {
      const fields = bookingFormFields({ firstName: "Zoë" });
      const { status, data } = await submitBooking(fields);
      expect(status).toBe(500);
      expect(data.toast).toEqual({
        type: "error",
        title: "Error",
        description: "Failed to create booking. Please try again.",
      });
      expect(data.result.error?.[""]).toEqual(["Failed to create booking. Please try again."]);
      expect(data.result.initialValue).toMatchObject({ firstName: "Zoë", email: fields.email, adults: "2" });
      expect(logged).toHaveBeenCalledWith(expect.objectContaining({ err: expect.any(Error) }), "booking insert failed");
    } finally {
      logged.mockRestore();
      await db().execute(sql`alter table orders drop constraint refuse_all_orders`);
    }
    expect(await rowCounts(db())).toEqual(nothingStored);
  });
});
