import { randomUUID } from "node:crypto";
import { asc, eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { orderEvents, orders, outbox, refunds, user } from "~/db/schema";
import { formatMajorAmount } from "~/features/payments/refund";
import { formatAmount } from "~/lib/currency";
import { siteOrigin } from "~/lib/site-origin.server";
import { formatAmountFr } from "~/lib/format-fr";
import type { BackOfficeOrder } from "~/features/admin/orders/order-details.server";
import type { OrdersPage } from "~/features/admin/orders/orders-admin.server";
import { action as orderAction, loader as orderLoader } from "~/routes/admin.orders.$orderId";
import { loader as ordersLoader } from "~/routes/admin.orders";
import { loader as exportLoader } from "~/routes/admin.orders.export[.csv]";
import { accountLinkOf } from "../../support/integration/account-link";
import { databaseWithAdmin, formRequest, pageRequest, toastOf } from "../../support/integration/requests";
import { emptyBookingTables, rowCounts } from "../../support/integration/booking-helpers";
import { insertCustomer, insertOrder } from "../../support/integration/orders-fixtures";
import { book } from "../../support/integration/personal-data-fixtures";
import { routeArgs, routeResult } from "../../support/integration/route-result";
import { testDatabaseKind } from "../../support/test-database";
import { siteConfig } from "../../../site.config";

const { db, admin } = databaseWithAdmin();

afterEach(async () => {
  await emptyBookingTables(db());
});

async function list(search: string) {
  return routeResult(() => ordersLoader(routeArgs(pageRequest(`/admin/orders${search}`, { cookie: admin().cookie }))));
}

async function listed(search: string): Promise<OrdersPage> {
  const result = await list(search);
  expect(result.status).toBe(200);
  return (result.data as { page: OrdersPage }).page;
}

const numbersOf = (page: OrdersPage) => page.rows.map((row) => row.orderNumber);

async function exported(search: string) {
  const response = (await exportLoader(
    routeArgs(pageRequest(`/admin/orders/export.csv${search}`, { cookie: admin().cookie })),
  )) as Response;
  // Keeps the BOM, which response.text() would drop.
  return { response, text: new TextDecoder("utf-8", { ignoreBOM: true }).decode(await response.arrayBuffer()) };
}

describe(`the admin order list on ${testDatabaseKind()}`, () => {
  it("filters by status and by inclusive days in Amsterdam (UTC+2 in June)", async () => {
    const customer = await insertCustomer(db(), "Ada Lovelace");
    const late = await insertOrder(db(), {
      customerId: customer.id,
      amount: 100,
      status: "paid",
      createdAt: new Date("2025-06-02T23:59:59.999+02:00"),
    });
    const early = await insertOrder(db(), {
      customerId: customer.id,
      amount: 100,
      createdAt: new Date("2025-06-01T00:00:00+02:00"),
    });
    await insertOrder(db(), { customerId: customer.id, amount: 100, createdAt: new Date("2025-05-31T23:59:59+02:00") });
    await insertOrder(db(), { customerId: customer.id, amount: 100, createdAt: new Date("2025-06-03T00:00:00+02:00") });

    expect(numbersOf(await listed("?from=2025-06-01&to=2025-06-02"))).toEqual([late.orderNumber, early.orderNumber]);
    expect(numbersOf(await listed("?status=paid"))).toEqual([late.orderNumber]);
    expect(numbersOf(await listed("?status=not_paid&from=2025-06-01&to=2025-06-01"))).toEqual([early.orderNumber]);
    expect(numbersOf(await listed("?status=&from=&to=&q="))).toHaveLength(4);
  });

  it("finds an order by its number, whatever the case, and orders by part of the customer's name or e-mail", async () => {
    const grace = await insertCustomer(db(), "Grace Hopper", "grace@navy.example");
    const alan = await insertCustomer(db(), "Alan Turing", "alan@bletchley.example");
    const graceOrder = await insertOrder(db(), { customerId: grace.id, amount: 100 });
    const alanOrder = await insertOrder(db(), { customerId: alan.id, amount: 100 });

    expect(numbersOf(await listed(`?q=${graceOrder.orderNumber.toLowerCase()}`))).toEqual([graceOrder.orderNumber]);
    expect(numbersOf(await listed("?q=HOPP"))).toEqual([graceOrder.orderNumber]);
    expect(numbersOf(await listed("?q=%20bletchley%20"))).toEqual([alanOrder.orderNumber]);
    expect(numbersOf(await listed("?q=FT-1-NOSUCH"))).toEqual([]);
    expect((await listed("?q=Alan")).rows[0]).toMatchObject({
      customerName: "Alan Turing",
      customerEmail: "alan@bletchley.example",
    });
  });

  it("takes % and _ in a search literally", async () => {
    const percent = await insertCustomer(db(), "Remise 100% Voyages");
    const other = await insertCustomer(db(), "Remise 1000 Voyages");
    const percentOrder = await insertOrder(db(), { customerId: percent.id, amount: 100 });
    await insertOrder(db(), { customerId: other.id, amount: 100 });
    expect(numbersOf(await listed("?q=100%25"))).toEqual([percentOrder.orderNumber]);
    expect(numbersOf(await listed("?q=e_1"))).toEqual([]);
  });

  it("pages through filtered orders both ways, keeping to the filter", async () => {
    const customer = await insertCustomer(db(), "Katherine Johnson", "katherine@nasa.example");
    const other = await insertCustomer(db(), "Someone Else");
    for (let index = 0; index < 30; index++) {
      const createdAt = new Date(Date.UTC(2025, 2, 1, 9, 0, index));
      await insertOrder(db(), { customerId: customer.id, amount: 100, status: "paid", createdAt });
      await insertOrder(db(), { customerId: other.id, amount: 100, status: "paid", createdAt });
    }
    const first = await listed("?q=nasa&status=paid");
    expect(first.rows).toHaveLength(25);
    expect(first.previous).toBeNull();
    const second = await listed(`?q=nasa&status=paid&after=${encodeURIComponent(first.next!)}`);
    expect(second.rows).toHaveLength(5);
    expect(second.next).toBeNull();
    expect(new Set([...first.rows, ...second.rows].map((row) => row.customerName))).toEqual(
      new Set(["Katherine Johnson"]),
    );
    const back = await listed(`?q=nasa&status=paid&before=${encodeURIComponent(second.previous!)}`);
    expect(numbersOf(back)).toEqual(numbersOf(first));
  });

  it.runIf(testDatabaseKind() === "postgres")(
    "gives up on a name or e-mail search that takes too long, saying so, rather than keeping the page waiting",
    async () => {
      // A search waiting on a lock stands in for one walking a million orders: both pass the time limit.
      await db().transaction(async (tx) => {
        await tx.execute(sql`lock table customers in access exclusive mode`);
        const started = Date.now();
        const result = await list("?q=hopper&status=refunded");
        expect(Date.now() - started).toBeLessThan(2_000);
        expect(result.status).toBe(400);
        expect(result.data).toMatchObject({
          page: null,
          errors: { q: expect.stringContaining("Recherche trop large") },
        });
      });
    },
  );

  it.each([
    ["?status=lost", "status", "Statut inconnu : choisissez-en un dans la liste."],
    ["?from=2025-13-01", "from", "Date de début invalide : utilisez le format AAAA-MM-JJ."],
    ["?to=hier", "to", "Date de fin invalide : utilisez le format AAAA-MM-JJ."],
    ["?from=2025-06-02&to=2025-06-01", "to", "La date de début doit précéder la date de fin."],
    ["?q=ab", "q", expect.stringContaining("au moins 3 caractères")],
  ])("answers %s with 400 and a French message, listing nothing", async (search, field, message) => {
    const result = await list(search);
    expect(result.status).toBe(400);
    expect(result.data).toMatchObject({ page: null, errors: { [field]: message } });
    const { response, text } = await exported(search);
    expect(response.status).toBe(400);
    expect(text).toContain("Export impossible");
  });
});

async function adminUserId() {
  const [found] = await db().select({ id: user.id }).from(user).where(eq(user.email, admin().email));
  return found!.id;
}

function changeStatus(orderId: string, fields: Record<string, string>) {
  return routeResult(() =>
    orderAction(routeArgs(formRequest(`/admin/orders/${orderId}`, fields, { cookie: admin().cookie }), { orderId })),
  );
}

describe(`an order's admin page on ${testDatabaseKind()}`, () => {
  it("shows the order, its customer and its history; an unknown or malformed id is a 404", async () => {
    const customer = await insertCustomer(db(), "Ada Lovelace", "ada@example.com");
    const order = await insertOrder(db(), { customerId: customer.id, amount: 2500, status: "paid" });
    const found = await routeResult(() =>
      orderLoader(
        routeArgs(pageRequest(`/admin/orders/${order.id}`, { cookie: admin().cookie }), { orderId: order.id }),
      ),
    );
    expect(found.data).toMatchObject({
      details: { order: { orderNumber: order.orderNumber }, customer: { email: "ada@example.com" }, payments: [] },
    });
    for (const orderId of ["00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      const missing = await routeResult(() =>
        orderLoader(routeArgs(pageRequest(`/admin/orders/${orderId}`, { cookie: admin().cookie }), { orderId })),
      );
      expect(missing.status).toBe(404);
      expect((await changeStatus(orderId, { to: "completed" })).status).toBe(404);
    }
  });

  it("marks a paid order completed, recording the admin and the note", async () => {
    const customer = await insertCustomer(db());
    const order = await insertOrder(db(), { customerId: customer.id, amount: 2500, status: "paid" });
    const result = await changeStatus(order.id, { to: "completed", note: "  Service rendu  " });
    expect(result).toMatchObject({ status: 302, location: `/admin/orders/${order.id}` });
    expect(toastOf(result.headers)).toEqual({
      type: "success",
      title: "Statut mis à jour",
      description: "Payée → Terminée",
    });
    const events = await db().select().from(orderEvents).where(eq(orderEvents.orderId, order.id));
    expect(events).toEqual([
      expect.objectContaining({
        fromStatus: "paid",
        toStatus: "completed",
        actorUserId: await adminUserId(),
        actorLabel: admin().email,
        note: "Service rendu",
      }),
    ]);
    const [after] = await db().select({ status: orders.status }).from(orders).where(eq(orders.id, order.id));
    expect(after!.status).toBe("completed");
  });

  it("refuses a change the state machine does not allow (a stale page, a second click), changing nothing", async () => {
    const customer = await insertCustomer(db());
    const order = await insertOrder(db(), { customerId: customer.id, amount: 2500 });
    expect((await changeStatus(order.id, { to: "cancelled" })).status).toBe(302);
    const again = await changeStatus(order.id, { to: "cancelled" });
    expect(again).toMatchObject({ status: 302, location: `/admin/orders/${order.id}` });
    expect(toastOf(again.headers)).toMatchObject({ type: "error", title: "Changement refusé" });
    const completed = await changeStatus(order.id, { to: "completed" });
    expect(toastOf(completed.headers)).toMatchObject({
      type: "error",
      description: "Une commande « Annulée » ne peut pas passer à « Terminée ». Rien n'a été modifié.",
    });
    const events = await db().select().from(orderEvents).where(eq(orderEvents.orderId, order.id));
    expect(events.map((event) => event.toStatus)).toEqual(["cancelled"]);
  });

  it("answers 400 to a status the back office may not set (paid, refunded) or a note too long", async () => {
    const customer = await insertCustomer(db());
    const order = await insertOrder(db(), { customerId: customer.id, amount: 2500 });
    for (const to of ["paid", "refunded"]) {
      const refused = await changeStatus(order.id, { to });
      expect(refused).toMatchObject({ status: 400, data: { error: "Changement de statut inconnu." } });
    }
    const long = await changeStatus(order.id, { to: "cancelled", note: "x".repeat(501) });
    expect(long).toMatchObject({ status: 400, data: { error: "La note ne peut pas dépasser 500 caractères." } });
    const [after] = await db().select({ status: orders.status }).from(orders).where(eq(orders.id, order.id));
    expect(after!.status).toBe("not_paid");
  });
});

/** The refund form as the order page posts it: a fresh idempotency key unless one is given. */
function refund(
  orderId: string,
  fields: { amount: string; reason?: string; idempotencyKey?: string; confirmed?: "yes" },
) {
  return changeStatus(orderId, {
    intent: "refund",
    reason: "Vol annulé par la compagnie",
    idempotencyKey: randomUUID(),
    ...fields,
  });
}

async function orderPage(orderId: string) {
  const result = await routeResult(() =>
    orderLoader(routeArgs(pageRequest(`/admin/orders/${orderId}`, { cookie: admin().cookie }), { orderId })),
  );
  return result.data as { details: BackOfficeOrder; refundKey: string };
}

async function statusOf(orderId: string) {
  const [row] = await db().select({ status: orders.status }).from(orders).where(eq(orders.id, orderId));
  return row!.status;
}

const refundRows = (orderId: string) =>
  db().select().from(refunds).where(eq(refunds.orderId, orderId)).orderBy(asc(refunds.createdAt));

const refundMails = () =>
  db()
    .select()
    .from(outbox)
    .where(sql`${outbox.subject} like ${`${siteConfig.company.name}: we refunded %`}`);

describe(`refunds from an order's admin page on ${testDatabaseKind()}`, () => {
  it("refunds a whole paid order through the gateway: refunded, with the admin and the reason in its history", async () => {
    const order = await book(db(), { pay: "paid" });
    const before = await orderPage(order.id);
    expect(before.refundKey).toMatch(/^[0-9a-f-]{36}$/);
    expect((await orderPage(order.id)).refundKey).not.toBe(before.refundKey);
    expect(before.details).toMatchObject({ refunds: { rows: [], refunded: 0, refundable: order.amount } });

    // The whole amount asks first: the step, nothing refunded.
    const form = { amount: formatMajorAmount(order.amount), reason: "  Vol annulé  ", idempotencyKey: randomUUID() };
    expect(await refund(order.id, form)).toMatchObject({
      status: 200,
      data: { confirmFull: { amount: order.amount, reason: "Vol annulé", idempotencyKey: form.idempotencyKey } },
    });
    expect(await statusOf(order.id)).toBe("paid");
    expect(await refundRows(order.id)).toEqual([]);

    const result = await refund(order.id, { ...form, confirmed: "yes" });
    expect(result).toMatchObject({ status: 302, location: `/admin/orders/${order.id}` });
    expect(toastOf(result.headers)).toEqual({
      type: "success",
      title: "Remboursement effectué",
      description: `${formatAmountFr(order.amount, "EUR")} remboursés : la commande est entièrement remboursée.`,
    });
    expect(await statusOf(order.id)).toBe("refunded");
    const events = await db().select().from(orderEvents).where(eq(orderEvents.orderId, order.id));
    expect(events.find((event) => event.toStatus === "refunded")).toMatchObject({
      fromStatus: "paid",
      actorUserId: await adminUserId(),
      actorLabel: admin().email,
      note: "Vol annulé",
    });
    expect(await refundRows(order.id)).toEqual([
      expect.objectContaining({
        amount: order.amount,
        currency: "EUR",
        reason: "Vol annulé",
        actorUserId: await adminUserId(),
        actorLabel: admin().email,
        providerRef: expect.stringMatching(/^sandbox_refund_/),
      }),
    ]);
    expect((await orderPage(order.id)).details).toMatchObject({
      refunds: {
        rows: [{ amount: order.amount, reason: "Vol annulé", actorLabel: admin().email }],
        refunded: order.amount,
        refundable: 0,
      },
    });
  });

  it("leaves a partly refunded order paid, and caps the next refund at what is left", async () => {
    const order = await book(db(), { pay: "paid" });
    const first = await refund(order.id, { amount: "10" });
    expect(toastOf(first.headers)).toMatchObject({
      title: "Remboursement effectué",
      description: `${formatAmountFr(1000, "EUR")} remboursés ; il reste ${formatAmountFr(order.amount - 1000, "EUR")} remboursables.`,
    });
    expect(await statusOf(order.id)).toBe("paid");
    expect((await orderPage(order.id)).details).toMatchObject({
      refunds: { refunded: 1000, refundable: order.amount - 1000 },
    });

    const tooMuch = await refund(order.id, { amount: formatMajorAmount(order.amount - 1000 + 1) });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.data).toMatchObject({
      refund: { error: { amount: [`Montant trop élevé : ${formatAmountFr(order.amount - 1000, "EUR")} au plus.`] } },
    });
    expect((await refundRows(order.id)).map((row) => row.amount)).toEqual([1000]);

    expect((await refund(order.id, { amount: formatMajorAmount(order.amount - 1000), confirmed: "yes" })).status).toBe(
      302,
    );
    expect(await statusOf(order.id)).toBe("refunded");
    expect((await refundRows(order.id)).map((row) => row.amount)).toEqual([1000, order.amount - 1000]);
    const last = await refund(order.id, { amount: "0,01" });
    expect(last).toMatchObject({ status: 302, location: `/admin/orders/${order.id}` });
    expect(toastOf(last.headers)).toEqual({
      type: "error",
      title: "Remboursement refusé",
      description: "Cette commande est déjà entièrement remboursée : rien n'a été remboursé.",
    });
    expect(await refundRows(order.id)).toHaveLength(2);
  });

  it("refuses a refund above what was paid, changing nothing", async () => {
    const order = await book(db(), { pay: "paid" });
    const before = await rowCounts(db());
    const result = await refund(order.id, { amount: formatMajorAmount(order.amount + 1) });
    expect(result.status).toBe(400);
    expect(result.data).toMatchObject({
      refund: { error: { amount: [`Montant trop élevé : ${formatAmountFr(order.amount, "EUR")} au plus.`] } },
    });
    expect(await rowCounts(db())).toEqual(before);
    expect(await statusOf(order.id)).toBe("paid");
  });

  it("refunds once when the same form is sent twice", async () => {
    const order = await book(db(), { pay: "paid" });
    const idempotencyKey = randomUUID();
    expect((await refund(order.id, { amount: "5", idempotencyKey })).status).toBe(302);
    const again = await refund(order.id, { amount: "5", idempotencyKey });
    expect(again).toMatchObject({ status: 302, location: `/admin/orders/${order.id}` });
    expect(toastOf(again.headers)).toEqual({
      type: "info",
      title: "Déjà remboursé",
      description: "Ce formulaire a déjà été envoyé : rien de plus n'a été remboursé.",
    });
    expect((await refundRows(order.id)).map((row) => row.amount)).toEqual([500]);
    expect(await refundMails()).toHaveLength(1);
  });

  it("queues the refund e-mail with the amount, what it was for and the card", async () => {
    const order = await book(db(), { email: "zoe@example.com", pay: "paid" });
    await refund(order.id, { amount: "12,50" });
    const mails = await refundMails();
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.to).toBe("zoe@example.com");
    expect(mail.subject).toBe(`${siteConfig.company.name}: we refunded ${formatAmount(1250, "EUR")}`);
    for (const body of [mail.textBody, mail.htmlBody!]) {
      expect(body).toContain(formatAmount(1250, "EUR"));
      expect(body).toContain(`Fast Track order ${order.orderNumber}`);
      expect(body).toContain("ending 4242");
    }
    expect(accountLinkOf(mail.textBody, "See your bookings")).toEqual({
      origin: siteOrigin(),
      email: "zoe@example.com",
    });
  });

  it("refunds nothing of an unpaid order", async () => {
    const order = await book(db());
    expect((await orderPage(order.id)).details).toMatchObject({ refunds: { charged: false, refundable: 0 } });
    const result = await refund(order.id, { amount: "1" });
    expect(toastOf(result.headers)).toEqual({
      type: "error",
      title: "Remboursement refusé",
      description: "Cette commande n'a pas été payée : rien n'a été remboursé.",
    });
    expect(await refundRows(order.id)).toEqual([]);
  });

  it("answers 400 with French messages to a refund without a reason, amount or key, and 404 for no order", async () => {
    const order = await book(db(), { pay: "paid" });
    const result = await changeStatus(order.id, { intent: "refund", amount: "1,234", reason: " " });
    expect(result.status).toBe(400);
    expect(result.data).toMatchObject({
      refund: {
        error: {
          amount: ["Montant invalide : un nombre positif, deux décimales au plus."],
          reason: ["Indiquez le motif du remboursement."],
          idempotencyKey: ["Formulaire expiré : rechargez la page."],
        },
      },
    });
    const missing = randomUUID();
    expect((await refund(missing, { amount: "1" })).status).toBe(404);
    expect(await refundRows(order.id)).toEqual([]);
  });
});

/** The CSV's rows, without the BOM and the last line end; cells with line breaks are kept whole. */
const csvRows = (text: string) =>
  text
    .replace(/^\uFEFF/, "")
    .replace(/\r\n$/, "")
    .split("\r\n");

describe(`the orders CSV export on ${testDatabaseKind()}`, () => {
  it("is a dated UTF-8 attachment with a French header, escaped cells and decimal amounts", async () => {
    const customer = await insertCustomer(db(), '=HYPERLINK("x"), "Le Grand"\nHôtel', "+evil@example.com");
    const order = await insertOrder(db(), {
      customerId: customer.id,
      amount: 123456,
      currency: "GBP",
      status: "completed",
      createdAt: new Date("2025-06-24T12:05:09Z"),
    });
    const { response, text } = await exported("");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="commandes-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(text.startsWith("\uFEFF")).toBe(true);
    expect(csvRows(text)).toEqual([
      "N° de commande,Date (UTC),Statut,Client,E-mail,Service,Aéroport,Date du vol,Adultes,Enfants,Montant,Devise",
      `${order.orderNumber},2025-06-24 12:05:09,Terminée,"'=HYPERLINK(""x""), ""Le Grand""\nHôtel",'+evil@example.com,Fast Track,,,1,0,1234.56,GBP`,
    ]);
  });

  it("exports the orders the list's filters select", async () => {
    const grace = await insertCustomer(db(), "Grace Hopper");
    const alan = await insertCustomer(db(), "Alan Turing");
    const wanted = await insertOrder(db(), { customerId: grace.id, amount: 100, status: "paid" });
    await insertOrder(db(), { customerId: grace.id, amount: 100 });
    await insertOrder(db(), { customerId: alan.id, amount: 100, status: "paid" });
    const rows = csvRows((await exported("?status=paid&q=hopper")).text);
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatch(new RegExp(`^${wanted.orderNumber},`));
  });

  it("streams 20,000 orders batch by batch, newest first, each exactly once", async () => {
    const customer = await insertCustomer(db(), "Bulk Customer");
    await db().execute(sql`
      insert into orders (order_number, customer_id, amount, currency, service_type, business, site, idempotency_key, adults, created_at)
      select 'FT-' || n || '-BULK', ${customer.id}, n, 'EUR', 'Fast Track', 'Fast Track', 'Test', 'bulk-' || n, 1,
             timestamptz '2025-01-01' + (n % 5000) * interval '1 second'
      from generate_series(1, 20000) n`);
    const { response, text } = await exported("");
    expect(response.body).toBeInstanceOf(ReadableStream);
    const rows = csvRows(text).slice(1);
    expect(rows).toHaveLength(20_000);
    expect(new Set(rows.map((row) => row.split(",")[0])).size).toBe(20_000);
    const dates = rows.map((row) => row.split(",")[1]!);
    expect(dates).toEqual([...dates].sort().reverse());
  });
});
