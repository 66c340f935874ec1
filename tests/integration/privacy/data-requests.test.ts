import { randomUUID } from "node:crypto";
import { addDays } from "date-fns";
import { eq, or } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import {
  contactMessages,
  customers,
  dataRequestEvents,
  dataRequests,
  invoices,
  membershipEvents,
  memberships,
  orders,
  outbox,
  payments,
  refunds,
  session,
  unsubscribeRequests,
  user,
} from "~/db/schema";
import { refundOrder } from "~/features/booking/order-refund.server";
import { enqueueMail } from "~/platform/mail/outbox.server";
import { runBilling } from "~/features/memberships/billing-job.server";
import { refundInvoice } from "~/features/memberships/invoice-refund.server";
import { sandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { ANONYMISED_CUSTOMER_NAME } from "~/features/privacy/customer-removal.server";
import { companyDay } from "~/lib/company-time";
import type { PersonalData } from "~/features/privacy/personal-data.server";
import { action as exportAction } from "~/routes/admin.data-requests.$requestId.export";
import { action as requestAction, loader as requestLoader } from "~/routes/admin.data-requests.$requestId";
import { action as requestsAction, loader as requestsLoader } from "~/routes/admin.data-requests";
import { createSignedInAccount, databaseWithAdmin, formRequest, pageRequest } from "../../support/integration/requests";
import {
  book,
  insertContactMessage,
  insertUnsubscribeRequest,
  membershipOf,
} from "../../support/integration/personal-data-fixtures";
import { routeArgs, routeResult } from "../../support/integration/route-result";
import { testDatabaseKind } from "../../support/test-database";
import { siteConfig } from "../../../site.config";

const { db, admin } = databaseWithAdmin();

async function customerOf(customerId: string) {
  const [customer] = await db().select().from(customers).where(eq(customers.id, customerId));
  return customer;
}

async function adminId() {
  const [row] = await db().select({ id: user.id }).from(user).where(eq(user.email, admin().email));
  return row!.id;
}

/** Posts the "record a request" form as the admin; returns the new request's id. */
async function recordRequest(email: string, kind: string, receivedOn = companyDay(new Date())) {
  const result = await routeResult(() =>
    requestsAction(
      routeArgs(formRequest("/admin/data-requests", { email, kind, receivedOn }, { cookie: admin().cookie })),
    ),
  );
  expect(result.status).toBe(302);
  return /\/admin\/data-requests\/(.+)$/.exec(result.location!)![1]!;
}

async function detail(id: string) {
  const result = await routeResult(() =>
    requestLoader(routeArgs(pageRequest(`/admin/data-requests/${id}`, { cookie: admin().cookie }), { requestId: id })),
  );
  return result.data as { found: { personalData: PersonalData; history: { action: string }[] } | null };
}

/** A request's history, as stored. */
function eventsOf(id: string) {
  return db().select().from(dataRequestEvents).where(eq(dataRequestEvents.dataRequestId, id));
}

function exportFile(id: string) {
  return exportAction(
    routeArgs(formRequest(`/admin/data-requests/${id}/export`, {}, { cookie: admin().cookie }), { requestId: id }),
  );
}

function erase(id: string, fields: Record<string, string>) {
  return routeResult(() =>
    requestAction(
      routeArgs(formRequest(`/admin/data-requests/${id}`, fields, { cookie: admin().cookie }), { requestId: id }),
    ),
  );
}

const COMPANY = "support@jetlane.example";

/** A person with an account, a paid and an unpaid booking, a message, an unsubscribe request and mail. */
async function personWithData() {
  const person = await createSignedInAccount(db());
  const [account] = await db().select().from(user).where(eq(user.email, person.email));
  const paid = await book(db(), { email: person.email, firstName: "Zoé", lastName: "Martin", pay: "paid" });
  const unpaid = await book(db(), { email: person.email.toUpperCase(), pay: "declined", userId: account!.id });
  await insertContactMessage(db(), { email: person.email });
  await insertUnsubscribeRequest(db(), { email: person.email });
  // The company's copy of a contact message names the address; another address that ends like it does not count.
  await enqueueMail(db(), { to: COMPANY, subject: "About", text: `Message from Zoé, ${person.email}.\nHello` });
  await enqueueMail(db(), { to: COMPANY, subject: "Not about", text: `Message from Jo: jo${person.email}` });
  return { person, account: account!, paid, unpaid };
}

const ORIGIN = "https://site.test";

/**
 * `personWithData`, whose trial became a paid membership: the billing job charged the first
 * quarter, then an admin refunded part of that invoice and part of the fast track.
 */
async function memberWithRefunds() {
  const found = await personWithData();
  const membership = await membershipOf(db(), found.paid.id);
  const billing = await runBilling(db(), sandboxGateway, { now: addDays(membership.trialEndsAt, 1), origin: ORIGIN });
  expect(billing.ran).toBe(true);
  const [invoice] = await db().select().from(invoices).where(eq(invoices.membershipId, membership.id));
  expect(invoice).toMatchObject({ status: "paid" });
  const actor = { userId: await adminId(), label: admin().email };
  const refund = (amount: number, reason: string) => ({ amount, reason, idempotencyKey: randomUUID() });
  expect(
    await refundInvoice(db(), sandboxGateway, { invoiceId: invoice!.id, refund: refund(900, "Charged twice"), actor }),
  ).toMatchObject({ kind: "refunded" });
  expect(
    await refundOrder(db(), sandboxGateway, { orderId: found.paid.id, refund: refund(300, "Lane closed"), actor }),
  ).toMatchObject({ kind: "refunded" });
  return { ...found, membership, invoice: invoice! };
}

/** The subjects of the mails a paid first booking brings, as sorted: the trial's start and the booking's confirmation. */
const bookingMails = (orderNumber: string) => [
  `Your ${siteConfig.trialDays}-day free trial of ${siteConfig.company.name} Medium has started`,
  expect.stringContaining(orderNumber),
];

describe(`data requests in the back office on ${testDatabaseKind()}`, () => {
  it("records a request with who and when, and refuses a bad one with French messages", async () => {
    const tomorrow = companyDay(new Date(Date.now() + 2 * 86_400_000));
    const refused = await routeResult(() =>
      requestsAction(
        routeArgs(
          formRequest(
            "/admin/data-requests",
            { email: "not-an-address", kind: "", receivedOn: tomorrow },
            { cookie: admin().cookie },
          ),
        ),
      ),
    );
    expect(refused.status).toBe(400);
    const { result } = refused.data as { result: { error: Record<string, string[]>; initialValue: unknown } };
    expect(result.error).toEqual({
      email: ["Adresse e-mail invalide"],
      kind: ["Choisissez le type de demande"],
      receivedOn: ["La date de réception ne peut pas être dans le futur"],
    });
    expect(result.initialValue).toMatchObject({ email: "not-an-address" });

    const id = await recordRequest("Someone@Example.com", "access", "2025-01-31");
    const [stored] = await db().select().from(dataRequests).where(eq(dataRequests.id, id));
    expect(stored).toMatchObject({
      email: "Someone@Example.com",
      kind: "access",
      receivedOn: "2025-01-31",
      completedAt: null,
    });
    const events = await eventsOf(id);
    expect(events).toEqual([
      expect.objectContaining({ action: "recorded", actorUserId: await adminId(), actorEmail: admin().email }),
    ]);

    const list = await routeResult(() =>
      requestsLoader(routeArgs(pageRequest("/admin/data-requests", { cookie: admin().cookie }))),
    );
    expect((list.data as { requests: { id: string }[] }).requests.map((request) => request.id)).toContain(id);
  });

  it("finds everything held about an address, whatever its case, and nothing of anyone else", async () => {
    const { person, paid, unpaid } = await personWithData();
    const other = await book(db(), { email: `other.${person.email}` });
    await insertContactMessage(db(), { email: `other.${person.email}` });

    const id = await recordRequest(person.email.toUpperCase(), "access");
    const found = (await detail(id)).found!;
    const data = found.personalData;
    expect(data.account).toMatchObject({ email: person.email, roles: [], sessions: [expect.any(Object)] });
    // One customer per address, whatever case each booking typed it in.
    expect(data.customers).toHaveLength(1);
    expect(data.customers[0]!.orders.map((order) => order.orderNumber).sort()).toEqual(
      [paid.orderNumber, unpaid.orderNumber].sort(),
    );
    expect(data.customers.flatMap((customer) => customer.orders.flatMap((order) => order.payments))).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ brand: "Visa", last4: "4242", outcome: "succeeded" }),
        expect.objectContaining({ brand: "Visa", last4: "0002", outcome: "declined" }),
      ]),
    );
    expect(data.contactMessages).toHaveLength(1);
    expect(data.unsubscribeRequests).toHaveLength(1);
    expect(data.emails.map((mail) => mail.subject).sort()).toEqual([
      "About",
      // The account's sign-up sent its address a confirmation link.
      `${siteConfig.company.name}: confirm your e-mail address`,
      ...bookingMails(paid.orderNumber),
    ]);
    expect(data.memberships).toEqual([
      expect.objectContaining({
        plan: "medium",
        status: "trialing",
        cardBrand: "Visa",
        cardLast4: "4242",
        events: [expect.objectContaining({ fromStatus: null, toStatus: "trialing" })],
        invoices: [],
      }),
    ]);
    expect(JSON.stringify(data)).not.toContain(other.orderNumber);
    expect(JSON.stringify(data)).not.toContain(`other.${person.email}`);
  });

  it("exports the data as a JSON attachment, records it and closes an access request", async () => {
    const { person, paid } = await personWithData();
    const id = await recordRequest(person.email, "access");

    const response = await exportFile(id);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toContain("application/json");
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename="[\w-]+\.json"$/);
    const file = (await response.json()) as PersonalData & { controller: string };
    expect(file.email).toBe(person.email);
    expect(file.customers.flatMap((customer) => customer.orders.map((order) => order.orderNumber))).toContain(
      paid.orderNumber,
    );
    expect(JSON.stringify(file)).not.toMatch(/token|password|tokenHash/i);

    const [request] = await db().select().from(dataRequests).where(eq(dataRequests.id, id));
    expect(request!.completedAt).toBeInstanceOf(Date);
    const event = (await eventsOf(id)).find((row) => row.action === "exported");
    expect(event).toMatchObject({
      actorEmail: admin().email,
      counts: {
        accounts: 1,
        customers: 1,
        orders: 2,
        payments: 2,
        memberships: 1,
        membershipEvents: 1,
        invoices: 0,
        refunds: 0,
        contactMessages: 1,
        unsubscribeRequests: 1,
        emails: 4,
      },
    });
  });

  it("exports a member's membership with its history, invoices and refunds, and the refunds of orders", async () => {
    const { person, paid, membership, invoice } = await memberWithRefunds();
    const id = await recordRequest(person.email, "export");
    const response = await exportFile(id);
    const text = await response.text();
    const file = JSON.parse(text) as PersonalData;

    expect(file.memberships).toEqual([
      expect.objectContaining({
        plan: "medium",
        status: "active",
        price: membership.price,
        currency: "EUR",
        cardLast4: "4242",
        events: [
          expect.objectContaining({ fromStatus: null, toStatus: "trialing" }),
          expect.objectContaining({ fromStatus: "trialing", toStatus: "active" }),
        ],
        invoices: [
          expect.objectContaining({
            amount: invoice.amount,
            currency: "EUR",
            status: "paid",
            refunds: [expect.objectContaining({ amount: 900, currency: "EUR", reason: "Charged twice" })],
          }),
        ],
      }),
    ]);
    const order = file.customers
      .flatMap((customer) => customer.orders)
      .find((row) => row.orderNumber === paid.orderNumber);
    expect(order!.refunds).toEqual([expect.objectContaining({ amount: 300, reason: "Lane closed" })]);
    // The saved card's reference at the provider could charge it: it is not the person's to carry around.
    expect(text).not.toContain(membership.paymentMethodRef);
    expect(text).not.toContain(admin().email);
    const event = (await eventsOf(id)).find((row) => row.action === "exported");
    expect(event!.counts).toMatchObject({ memberships: 1, membershipEvents: 2, invoices: 1, refunds: 2 });
  });

  it("erases once confirmed: paid orders stay anonymised, everything else about the person goes", async () => {
    const { person, account, paid, unpaid } = await personWithData();
    const bystander = await book(db(), { email: `bystander.${person.email}`, pay: "paid" });
    const id = await recordRequest(person.email, "erasure");

    const unconfirmed = await erase(id, {});
    expect(unconfirmed.status).toBe(400);
    expect((unconfirmed.data as { result: { error: unknown } }).result.error).toEqual({
      confirm: ["Cochez la case pour confirmer l'effacement"],
    });
    expect(await db().select().from(user).where(eq(user.id, account.id))).toHaveLength(1);

    const erased = await erase(id, { confirm: "on" });
    expect(erased).toMatchObject({ status: 302, location: `/admin/data-requests/${id}` });

    const [kept] = await db().select().from(orders).where(eq(orders.id, paid.id));
    expect(kept).toMatchObject({ status: "paid", amount: paid.amount });
    const [customer] = await db().select().from(customers).where(eq(customers.id, paid.customerId));
    expect(customer).toEqual(
      expect.objectContaining({ fullName: ANONYMISED_CUSTOMER_NAME, email: null, notes: null, userId: null }),
    );
    expect(await db().select().from(payments).where(eq(payments.orderId, paid.id))).toHaveLength(1);
    // The trial is cancelled at once, by the admin, so that nothing is charged after the erasure.
    const [membership] = await db().select().from(memberships).where(eq(memberships.orderId, paid.id));
    expect(membership).toMatchObject({ email: null, status: "cancelled", customerId: paid.customerId });
    expect(membership!.endedAt).toBeInstanceOf(Date);
    const [cancelled] = await db().select().from(membershipEvents).where(eq(membershipEvents.toStatus, "cancelled"));
    expect(cancelled).toMatchObject({
      membershipId: membership!.id,
      actorUserId: await adminId(),
      actorLabel: admin().email,
    });
    expect(await db().select().from(orders).where(eq(orders.id, unpaid.id))).toEqual([]);
    // The unpaid order was the same customer's (one per address): that customer stays, anonymised, above.
    expect(unpaid.customerId).toBe(paid.customerId);
    expect(await db().select().from(user).where(eq(user.id, account.id))).toEqual([]);
    expect(await db().select().from(session).where(eq(session.userId, account.id))).toEqual([]);
    expect(await db().select().from(contactMessages).where(eq(contactMessages.email, person.email))).toEqual([]);
    expect(await db().select().from(unsubscribeRequests).where(eq(unsubscribeRequests.email, person.email))).toEqual(
      [],
    );
    expect(await db().select().from(outbox).where(eq(outbox.to, person.email))).toEqual([]);
    const companyMails = await db().select().from(outbox).where(eq(outbox.to, COMPANY));
    expect(companyMails.filter((mail) => mail.textBody.includes(person.email)).map((mail) => mail.textBody)).toEqual([
      `Message from Jo: jo${person.email}`,
    ]);
    const [untouched] = await db().select().from(customers).where(eq(customers.id, bystander.customerId));
    expect(untouched!.fullName).toBe("Ann Lee");

    const found = (await detail(id)).found!;
    expect(found.personalData).toMatchObject({
      account: null,
      customers: [],
      memberships: [],
      contactMessages: [],
      unsubscribeRequests: [],
      emails: [],
    });
    expect(found.history.map((event) => event.action)).toEqual(["recorded", "erased"]);
    const erasedEvent = (await eventsOf(id)).find((row) => row.action === "erased");
    expect(erasedEvent).toMatchObject({
      actorEmail: admin().email,
      counts: {
        membershipsCancelled: 1,
        membershipsAnonymised: 1,
        ordersDeleted: 1,
        orderEvents: 1,
        paymentAttempts: 1,
        customersDeleted: 0,
        customersAnonymised: 1,
        contactMessages: 1,
        unsubscribeRequests: 1,
        emails: 4,
        accounts: 1,
      },
    });
    const [request] = await db().select().from(dataRequests).where(eq(dataRequests.id, id));
    expect(request!.completedAt).toBeInstanceOf(Date);
    await runBilling(db(), sandboxGateway, { now: addDays(new Date(), 30), origin: ORIGIN });
    expect(await db().select().from(invoices).where(eq(invoices.membershipId, membership!.id))).toEqual([]);
  });

  it("erases a member: invoices and refunds stay for the accounts, naming no one, and nothing more is charged", async () => {
    const { person, paid, membership, invoice } = await memberWithRefunds();
    const id = await recordRequest(person.email, "erasure");
    expect((await erase(id, { confirm: "on" })).status).toBe(302);

    const [kept] = await db().select().from(memberships).where(eq(memberships.id, membership.id));
    expect(kept).toMatchObject({ email: null, status: "cancelled", cardLast4: "4242" });
    expect(await db().select().from(invoices).where(eq(invoices.id, invoice.id))).toEqual([
      expect.objectContaining({ status: "paid", amount: invoice.amount }),
    ]);
    const keptRefunds = await db()
      .select()
      .from(refunds)
      .where(or(eq(refunds.orderId, paid.id), eq(refunds.invoiceId, invoice.id)));
    expect(keptRefunds.map((row) => [row.amount, row.reason]).sort()).toEqual([
      [300, "Lane closed"],
      [900, "Charged twice"],
    ]);
    expect(await customerOf(paid.customerId)).toMatchObject({ fullName: ANONYMISED_CUSTOMER_NAME, email: null });
    expect(await db().select().from(outbox).where(eq(outbox.to, person.email))).toEqual([]);

    await runBilling(db(), sandboxGateway, { now: addDays(kept!.currentPeriodEnd, 1), origin: ORIGIN });
    expect(await db().select().from(invoices).where(eq(invoices.membershipId, membership.id))).toHaveLength(1);
    expect((await detail(id)).found!.personalData.memberships).toEqual([]);
  });

  it("will not let an admin erase their own account", async () => {
    const id = await recordRequest(admin().email, "erasure");
    const refused = await erase(id, { confirm: "on" });
    expect(refused.status).toBe(409);
    expect((refused.data as { result: { error: Record<string, string[]> } }).result.error).toEqual({
      "": ["Vous ne pouvez pas effacer votre propre compte depuis cette page."],
    });
    expect(await db().select().from(user).where(eq(user.email, admin().email))).toHaveLength(1);
  });

  it("answers 404 for a request that does not exist", async () => {
    const missing = "00000000-0000-4000-8000-000000000000";
    expect((await detail(missing)).found).toBeNull();
    expect((await exportFile(missing)).status).toBe(404);
    expect((await erase("not-a-uuid", { confirm: "on" })).status).toBe(404);
  });
});
