import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { user } from "~/db/schema";
import type { CustomerDetails, CustomersPage } from "~/features/admin/customers/customers-admin.server";
import type { CustomerOrderRow } from "~/features/admin/orders/orders-admin.server";
import type { CustomerSearch } from "~/features/admin/customer-search";
import type { KeysetPage } from "~/features/admin/keyset.server";
import { anonymiseCustomers } from "~/features/privacy/customer-removal.server";
import { loader as customerLoader } from "~/routes/admin.clients.$customerId";
import { loader as customersLoader } from "~/routes/admin.clients";
import { databaseWithAdmin, pageRequest } from "../../support/integration/requests";
import { insertCustomer, insertOrder } from "../../support/integration/orders-fixtures";
import { routeArgs, routeResult } from "../../support/integration/route-result";
import { testDatabaseKind } from "../../support/test-database";

const { db, admin } = databaseWithAdmin();

/** A name no other test's customers contain, so that searching for it finds this test's alone. */
const uniqueWord = () => `zq${randomUUID().slice(0, 8)}`;

async function customerList(search = "") {
  const result = await routeResult(() =>
    customersLoader(routeArgs(pageRequest(`/admin/clients${search}`, { cookie: admin().cookie }))),
  );
  expect(result.status).toBe(200);
  return result.data as { search: CustomerSearch; customers: CustomersPage };
}

async function customerPage(customerId: string, search = "") {
  return routeResult(() =>
    customerLoader(
      routeArgs(pageRequest(`/admin/clients/${customerId}${search}`, { cookie: admin().cookie }), { customerId }),
    ),
  );
}

const names = (page: CustomersPage) => page.rows.map((row) => row.name);

describe(`the back office's customers on ${testDatabaseKind()}`, () => {
  it("shows each customer's order count and what they paid, per currency, never adding currencies together", async () => {
    const word = uniqueWord();
    const grace = await insertCustomer(db(), `Grace ${word}`, `grace.${word}@example.com`);
    await insertCustomer(db(), `Alan ${word}`, `alan.${word}@example.com`);
    await insertOrder(db(), { customerId: grace.id, amount: 2200, status: "paid", currency: "EUR" });
    await insertOrder(db(), { customerId: grace.id, amount: 1100, status: "completed", currency: "EUR" });
    await insertOrder(db(), { customerId: grace.id, amount: 500, status: "paid", currency: "USD" });
    await insertOrder(db(), { customerId: grace.id, amount: 9900, status: "not_paid", currency: "EUR" });
    await insertOrder(db(), { customerId: grace.id, amount: 700, status: "refunded", currency: "GBP" });
    await insertOrder(db(), { customerId: grace.id, amount: 800, status: "cancelled", currency: "USD" });

    const { customers } = await customerList(`?q=${word}`);
    expect(customers.rows).toEqual([
      expect.objectContaining({ name: `Alan ${word}`, orders: 0, paid: [], anonymised: false }),
      expect.objectContaining({
        name: `Grace ${word}`,
        email: `grace.${word}@example.com`,
        orders: 6,
        paid: [
          { currency: "USD", amount: 500 },
          { currency: "EUR", amount: 3300 },
        ],
      }),
    ]);
  });

  it("finds customers by any part of their name or e-mail, whatever the case, with % and _ taken literally", async () => {
    const word = uniqueWord();
    await insertCustomer(db(), `Ada Lovelace-${word}`, `countess.${word}@example.org`);
    await insertCustomer(db(), `Charles ${word}`, `babbage_${word}@example.org`);
    await insertCustomer(db(), `Percent 100%${word}`);

    expect(names((await customerList(`?q=LOVELACE-${word.toUpperCase()}`)).customers)).toEqual([
      `Ada Lovelace-${word}`,
    ]);
    expect(names((await customerList(`?q=${encodeURIComponent(`ada lovelace-${word}`)}`)).customers)).toEqual([
      `Ada Lovelace-${word}`,
    ]);
    expect(names((await customerList(`?q=countess.${word}`)).customers)).toEqual([`Ada Lovelace-${word}`]);
    expect(names((await customerList(`?q=e_${word}`)).customers)).toEqual([`Charles ${word}`]);
    // "_" and "%" would match any character or run of them if they were not escaped.
    expect(names((await customerList(`?q=s_${word}`)).customers)).toEqual([]);
    expect(names((await customerList(`?q=${encodeURIComponent(`0%${word}`)}`)).customers)).toEqual([
      `Percent 100%${word}`,
    ]);
    expect(names((await customerList(`?q=${encodeURIComponent(`e%${word}`)}`)).customers)).toEqual([]);

    const { search, customers } = await customerList(`?q=${encodeURIComponent(`  nobody-${word}  `)}`);
    expect(search).toEqual({ query: `nobody-${word}`, term: `nobody-${word}`, notice: null });
    expect(customers.rows).toEqual([]);
  });

  it("says a search needs three characters, and lists every customer meanwhile", async () => {
    await insertCustomer(db(), `Short ${uniqueWord()}`);
    const { search, customers } = await customerList("?q=ab");
    expect(search).toEqual({
      query: "ab",
      term: null,
      notice: "Saisissez au moins 3 caractères pour rechercher : tous les clients sont affichés.",
    });
    expect(customers.rows.length).toBeGreaterThan(0);
  });

  it("pages through the customers 25 at a time, newest first, keeping the search", async () => {
    const word = uniqueWord();
    const sameInstant = new Date("2025-04-01T08:00:00.654321Z");
    for (let index = 0; index < 30; index++) {
      // A few created in the same microsecond, as concurrent bookings can be.
      const createdAt = index % 6 === 0 ? sameInstant : new Date(Date.UTC(2025, 3, 1, 7, 0, index));
      await insertCustomer(db(), `Client ${String(index).padStart(2, "0")} ${word}`, null, createdAt);
    }

    const first = (await customerList(`?q=${word}`)).customers;
    expect(first.rows).toHaveLength(25);
    expect(first.previous).toBeNull();
    const second = (await customerList(`?q=${word}&after=${encodeURIComponent(first.next!)}`)).customers;
    expect(second.rows).toHaveLength(5);
    expect(second.next).toBeNull();

    const seen = [...first.rows, ...second.rows];
    expect(new Set(seen.map((row) => row.id)).size).toBe(30);
    const order = seen.map((row) => [row.createdAt.getTime(), row.id] as const);
    const newestFirst = [...order].sort(([timeA, idA], [timeB, idB]) => timeB - timeA || (idA < idB ? 1 : -1));
    expect(order).toEqual(newestFirst);

    const back = (await customerList(`?q=${word}&before=${encodeURIComponent(second.previous!)}`)).customers;
    expect(back.rows.map((row) => row.id)).toEqual(first.rows.map((row) => row.id));
    expect(back.previous).toBeNull();
  });

  it("shows an anonymised customer as such, without an e-mail", async () => {
    const word = uniqueWord();
    const customer = await insertCustomer(db(), `Erased ${word}`, `erased.${word}@example.com`);
    await insertOrder(db(), { customerId: customer.id, amount: 1100, status: "paid" });
    await anonymiseCustomers(db(), [customer.id]);

    const result = await customerPage(customer.id);
    expect((result.data as { found: { customer: CustomerDetails } }).found.customer).toMatchObject({
      name: "Client anonymisé",
      anonymised: true,
      email: null,
      notes: null,
      orders: 1,
      paid: [{ currency: "EUR", amount: 1100 }],
    });
  });

  it("shows a customer's details and their orders, newest first", async () => {
    const word = uniqueWord();
    const customer = await insertCustomer(db(), `Hedy ${word}`, `hedy.${word}@example.com`);
    const older = await insertOrder(db(), {
      customerId: customer.id,
      amount: 1100,
      status: "paid",
      createdAt: new Date("2025-05-01T10:00:00Z"),
    });
    const newer = await insertOrder(db(), {
      customerId: customer.id,
      amount: 2200,
      currency: "GBP",
      createdAt: new Date("2025-05-02T10:00:00Z"),
    });
    const someoneElse = await insertCustomer(db(), `Other ${word}`);
    await insertOrder(db(), { customerId: someoneElse.id, amount: 300 });

    const result = await customerPage(customer.id);
    expect(result.status).toBe(200);
    const { found } = result.data as { found: { customer: CustomerDetails; orders: KeysetPage<CustomerOrderRow> } };
    expect(found.customer).toMatchObject({
      name: `Hedy ${word}`,
      email: `hedy.${word}@example.com`,
      accountEmail: null,
      orders: 2,
      paid: [{ currency: "EUR", amount: 1100 }],
    });
    expect(found.orders.rows.map((order) => [order.orderNumber, order.currency, order.status])).toEqual([
      [newer.orderNumber, "GBP", "not_paid"],
      [older.orderNumber, "EUR", "paid"],
    ]);
  });

  it("names the account with the customer's address, even one that never booked signed in", async () => {
    const word = uniqueWord();
    const customer = await insertCustomer(db(), `Ida ${word}`, `ida.${word}@example.com`);
    const signedUp = new Date("2026-02-28T12:00:00Z");
    await db()
      .insert(user)
      .values({ id: `user-${word}`, name: "Ida", email: `Ida.${word}@example.com`, createdAt: signedUp });
    const result = await customerPage(customer.id);
    expect((result.data as { found: { customer: CustomerDetails } }).found.customer).toMatchObject({
      accountEmail: `Ida.${word}@example.com`,
      accountCreatedAt: signedUp,
    });
  });

  it.each([
    ["an unknown id", "00000000-0000-4000-8000-000000000000"],
    ["an id that is not a uuid", "not-a-uuid'; drop table customers"],
  ])("answers 404 for %s", async (_case, customerId) => {
    const result = await customerPage(customerId);
    expect(result).toMatchObject({ status: 404, data: { found: null } });
  });
});
