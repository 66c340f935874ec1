import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { invoices, membershipEvents, memberships, outbox, refunds, user } from "~/db/schema";
import type { MembershipDetails } from "~/features/admin/memberships/membership-details.server";
import type { MembershipsPage } from "~/features/admin/memberships/memberships-admin.server";
import { action as membershipAction, loader as membershipLoader } from "~/routes/admin.memberships.$membershipId";
import { loader as membershipsLoader } from "~/routes/admin.memberships";
import { emptyBookingTables } from "../../support/integration/booking-helpers";
import { insertMembership, paidMember } from "../../support/integration/memberships-fixtures";
import { insertCustomer } from "../../support/integration/orders-fixtures";
import {
  createSignedInAccount,
  databaseWithAdmin,
  formRequest,
  pageRequest,
  toastOf,
  type TestAccount,
} from "../../support/integration/requests";
import { routeArgs, routeResult } from "../../support/integration/route-result";
import { testDatabaseKind } from "../../support/test-database";

const { db, admin } = databaseWithAdmin();
let member: TestAccount;

beforeAll(async () => {
  member = await createSignedInAccount(db());
});

afterEach(async () => {
  await emptyBookingTables(db());
});

const NO_SUCH_ID = "00000000-0000-4000-8000-000000000000";

function list(search: string, cookie = admin().cookie) {
  return routeResult(() => membershipsLoader(routeArgs(pageRequest(`/admin/memberships${search}`, { cookie }))));
}

async function listed(search: string): Promise<MembershipsPage> {
  const result = await list(search);
  expect(result.status).toBe(200);
  return (result.data as { page: MembershipsPage }).page;
}

const idsOf = (page: MembershipsPage) => page.rows.map((row) => row.id);

function memberPage(membershipId: string, cookie = admin().cookie) {
  return routeResult(() =>
    membershipLoader(routeArgs(pageRequest(`/admin/memberships/${membershipId}`, { cookie }), { membershipId })),
  );
}

async function detailsOf(membershipId: string) {
  const result = await memberPage(membershipId);
  expect(result.status).toBe(200);
  return (result.data as { found: { details: MembershipDetails; refundKeys: Record<string, string> } }).found;
}

function post(membershipId: string, fields: Record<string, string>, cookie = admin().cookie) {
  return routeResult(() =>
    membershipAction(
      routeArgs(formRequest(`/admin/memberships/${membershipId}`, fields, { cookie }), { membershipId }),
    ),
  );
}

async function adminUserId() {
  const [found] = await db().select({ id: user.id }).from(user).where(eq(user.email, admin().email));
  return found!.id;
}

async function membershipRow(membershipId: string) {
  const [row] = await db().select().from(memberships).where(eq(memberships.id, membershipId));
  return row!;
}

const eventsOf = (membershipId: string) =>
  db()
    .select()
    .from(membershipEvents)
    .where(eq(membershipEvents.membershipId, membershipId))
    .orderBy(membershipEvents.createdAt);

describe(`the admin membership list on ${testDatabaseKind()}`, () => {
  it("filters by status and by plan, newest first", async () => {
    const customer = await insertCustomer(db(), "Ada Lovelace");
    const at = (minute: number) => new Date(Date.UTC(2025, 5, 1, 9, minute));
    const trial = await insertMembership(db(), { customerId: customer.id, createdAt: at(1) });
    const active = await insertMembership(db(), { customerId: customer.id, status: "active", createdAt: at(2) });
    const premium = await insertMembership(db(), {
      customerId: customer.id,
      status: "active",
      plan: "premium",
      createdAt: at(3),
    });
    const pastDue = await insertMembership(db(), { customerId: customer.id, status: "past_due", createdAt: at(4) });
    const cancelled = await insertMembership(db(), { customerId: customer.id, status: "cancelled", createdAt: at(5) });
    const ended = await insertMembership(db(), { customerId: customer.id, status: "ended", createdAt: at(6) });

    expect(idsOf(await listed(""))).toEqual([ended, cancelled, pastDue, premium, active, trial].map(({ id }) => id));
    expect(idsOf(await listed("?status=active"))).toEqual([premium.id, active.id]);
    expect(idsOf(await listed("?plan=premium"))).toEqual([premium.id]);
    expect(idsOf(await listed("?status=active&plan=medium"))).toEqual([active.id]);
    expect(idsOf(await listed("?status=trialing&plan=premium"))).toEqual([]);
    expect(idsOf(await listed("?status=past_due&plan=&q="))).toEqual([pastDue.id]);
    expect((await listed("?plan=premium")).rows[0]).toMatchObject({
      plan: "premium",
      status: "active",
      price: 7900,
      currency: "EUR",
      cancelAtPeriodEnd: false,
      customer: { id: customer.id, name: "Ada Lovelace", anonymised: false },
    });
  });

  it("finds members by part of their name or e-mail, taking % and _ literally", async () => {
    const grace = await insertCustomer(db(), "Grace Hopper", "grace@navy.example");
    const alan = await insertCustomer(db(), "Alan Turing", "alan@bletchley.example");
    const percent = await insertCustomer(db(), "Remise 100% Voyages");
    const graceMembership = await insertMembership(db(), { customerId: grace.id });
    const alanMembership = await insertMembership(db(), { customerId: alan.id, status: "active" });
    const percentMembership = await insertMembership(db(), { customerId: percent.id });

    expect(idsOf(await listed("?q=HOPP"))).toEqual([graceMembership.id]);
    expect(idsOf(await listed("?q=%20bletchley%20"))).toEqual([alanMembership.id]);
    expect(idsOf(await listed("?q=alan&status=trialing"))).toEqual([]);
    expect(idsOf(await listed("?q=100%25"))).toEqual([percentMembership.id]);
    expect(idsOf(await listed("?q=e_1"))).toEqual([]);
    expect((await listed("?q=Alan")).rows[0]!.customer).toMatchObject({
      name: "Alan Turing",
      email: "alan@bletchley.example",
    });
  });

  it("pages through filtered memberships both ways, keeping to the filter", async () => {
    const katherine = await insertCustomer(db(), "Katherine Johnson", "katherine@nasa.example");
    const other = await insertCustomer(db(), "Someone Else");
    for (let index = 0; index < 30; index++) {
      const createdAt = new Date(Date.UTC(2025, 2, 1, 9, 0, index));
      await insertMembership(db(), { customerId: katherine.id, status: "active", createdAt });
      await insertMembership(db(), { customerId: other.id, status: "active", createdAt });
      await insertMembership(db(), { customerId: katherine.id, status: "cancelled", createdAt });
    }
    const first = await listed("?q=nasa&status=active");
    expect(first.rows).toHaveLength(25);
    expect(first.previous).toBeNull();
    const second = await listed(`?q=nasa&status=active&after=${encodeURIComponent(first.next!)}`);
    expect(second.rows).toHaveLength(5);
    expect(second.next).toBeNull();
    const all = [...first.rows, ...second.rows];
    expect(new Set(all.map((row) => row.customer.name))).toEqual(new Set(["Katherine Johnson"]));
    expect(new Set(all.map((row) => row.status))).toEqual(new Set(["active"]));
    expect(new Set(all.map((row) => row.id)).size).toBe(30);
    const back = await listed(`?q=nasa&status=active&before=${encodeURIComponent(second.previous!)}`);
    expect(idsOf(back)).toEqual(idsOf(first));
  });

  it.runIf(testDatabaseKind() === "postgres")(
    "gives up on a name or e-mail search that takes too long, saying so, rather than keeping the page waiting",
    async () => {
      // A search waiting on a lock stands in for one walking a million memberships.
      await db().transaction(async (tx) => {
        await tx.execute(sql`lock table customers in access exclusive mode`);
        const result = await list("?q=hopper&status=ended");
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
    ["?plan=gold", "plan", "Formule inconnue : choisissez-en une dans la liste."],
    ["?q=ab", "q", "Saisissez au moins 3 caractères du nom ou de l'adresse e-mail."],
    ["?q=" + "x".repeat(101), "q", "La recherche ne peut pas dépasser 100 caractères."],
  ])("answers %s with 400 and a French message, listing nothing", async (search, field, message) => {
    const result = await list(search);
    expect(result.status).toBe(400);
    expect(result.data).toMatchObject({
      page: null,
      errors: { [field]: message },
      values: { [field]: expect.any(String) },
    });
  });
});

describe(`a membership's admin page on ${testDatabaseKind()}`, () => {
  it("sends a member who is not an admin home, from the list, the page and its action, changing nothing", async () => {
    const customer = await insertCustomer(db());
    const membership = await insertMembership(db(), { customerId: customer.id });
    for (const result of [
      await list("", member.cookie),
      await memberPage(membership.id, member.cookie),
      await post(membership.id, { cancel: "now", confirmed: "yes" }, member.cookie),
    ]) {
      expect(result).toMatchObject({ status: 302, location: "/" });
    }
    expect((await membershipRow(membership.id)).status).toBe("trialing");
  });

  it("shows the membership, its member, its order, its paid invoice and its history; an unknown id is a 404", async () => {
    const { membership, invoice, orderId } = await paidMember(db(), { firstName: "Grace", lastName: "Hopper" });
    const { details, refundKeys } = await detailsOf(membership.id);
    expect(details).toMatchObject({
      membership: { plan: "medium", status: "active", price: 4900, currency: "EUR", cardLast4: "4242" },
      customer: { name: "Grace Hopper", email: membership.email },
      order: { id: orderId },
      invoices: [{ id: invoice.id, amount: 4900, status: "paid", attempts: 1, refunded: 0, refundable: 4900 }],
      refunds: [],
    });
    expect(details.invoices[0]!.paidAt).toBeInstanceOf(Date);
    expect(details.history.map((event) => [event.fromStatus, event.toStatus, event.actorLabel])).toEqual([
      ["trialing", "active", "system"],
      [null, "trialing", "customer"],
    ]);
    expect(refundKeys[invoice.id]).toMatch(/^[0-9a-f-]{36}$/);
    expect((await detailsOf(membership.id)).refundKeys[invoice.id]).not.toBe(refundKeys[invoice.id]);

    for (const membershipId of [NO_SUCH_ID, "not-a-uuid"]) {
      expect((await memberPage(membershipId)).status).toBe(404);
      expect((await post(membershipId, { cancel: "now", confirmed: "yes" })).status).toBe(404);
    }
  });

  it("cancels at the end of the period: the status stays, the history names the admin, the member is told", async () => {
    const customer = await insertCustomer(db(), "Ada Lovelace", "ada@example.com");
    const membership = await insertMembership(db(), {
      customerId: customer.id,
      status: "active",
      email: "ada@example.com",
    });
    const result = await post(membership.id, { cancel: "at-period-end" });
    expect(result).toMatchObject({ status: 302, location: `/admin/memberships/${membership.id}` });
    expect(toastOf(result.headers)).toMatchObject({
      type: "success",
      title: "Résiliation programmée",
      description: expect.stringContaining("Le membre garde l'accès jusqu'au"),
    });
    expect(await membershipRow(membership.id)).toMatchObject({
      status: "active",
      cancelAtPeriodEnd: true,
      endedAt: null,
    });
    expect(await eventsOf(membership.id)).toEqual([
      expect.objectContaining({
        fromStatus: "active",
        toStatus: "active",
        actorUserId: await adminUserId(),
        actorLabel: admin().email,
        note: expect.stringContaining("Résiliation demandée"),
      }),
    ]);
    expect(await db().select({ to: outbox.to }).from(outbox)).toEqual([{ to: "ada@example.com" }]);
    const { details } = await detailsOf(membership.id);
    expect(details.membership.cancelAtPeriodEnd).toBe(true);
    expect(details.history[0]).toMatchObject({ actorLabel: admin().email });
  });

  it("cancels at once only from its confirmation step, then refuses a second cancellation, changing nothing more", async () => {
    const customer = await insertCustomer(db(), "Alan Turing");
    const membership = await insertMembership(db(), { customerId: customer.id, status: "active" });
    // The button alone (a form sent without the step) leads to the step, and ends nothing.
    expect(await post(membership.id, { cancel: "now" })).toMatchObject({
      status: 302,
      location: `/admin/memberships/${membership.id}?confirmer=resiliation`,
    });
    expect(await membershipRow(membership.id)).toMatchObject({ status: "active", endedAt: null });
    expect(await eventsOf(membership.id)).toEqual([]);
    const before = Date.now();
    const result = await post(membership.id, { cancel: "now", confirmed: "yes" });
    expect(toastOf(result.headers)).toMatchObject({ type: "success", title: "Abonnement résilié" });
    const row = await membershipRow(membership.id);
    expect(row.status).toBe("cancelled");
    expect(row.endedAt!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(await eventsOf(membership.id)).toEqual([
      expect.objectContaining({
        fromStatus: "active",
        toStatus: "cancelled",
        actorLabel: admin().email,
        note: "Résiliée avec effet immédiat",
      }),
    ]);

    const again = await post(membership.id, { cancel: "at-period-end" });
    expect(again).toMatchObject({ status: 302, location: `/admin/memberships/${membership.id}` });
    expect(toastOf(again.headers)).toEqual({
      type: "error",
      title: "Résiliation impossible",
      description: "Cet abonnement est déjà résilié ou terminé : rien n'a été modifié.",
    });
    expect(await eventsOf(membership.id)).toHaveLength(1);
  });

  it("answers 400 to a form it does not know", async () => {
    const customer = await insertCustomer(db());
    const membership = await insertMembership(db(), { customerId: customer.id });
    const result = await post(membership.id, { cancel: "tomorrow" });
    expect(result).toMatchObject({ status: 400, data: { error: "Action inconnue : rechargez la page." } });
    expect(await eventsOf(membership.id)).toEqual([]);
  });
});

describe(`refunds of a membership's invoices on ${testDatabaseKind()}`, () => {
  const refundOf = (membershipId: string, invoiceId: string, fields: Record<string, string>) =>
    post(membershipId, { invoiceId, idempotencyKey: randomUUID(), ...fields });

  const refundRows = () => db().select().from(refunds);

  it("refunds part of a paid invoice, never more than what is left, and once per form", async () => {
    const { membership, invoice } = await paidMember(db());
    const tooMuch = await refundOf(membership.id, invoice.id, { amount: "49,01", reason: "Doublon" });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.data).toMatchObject({
      refund: {
        invoiceId: invoice.id,
        result: { error: { amount: ["Montant trop élevé : 49,00\u00a0€ au plus."] } },
      },
    });
    expect(await refundRows()).toEqual([]);

    const { refundKeys } = await detailsOf(membership.id);
    const form = { invoiceId: invoice.id, idempotencyKey: refundKeys[invoice.id]!, amount: "10,50", reason: "Doublon" };
    const first = await post(membership.id, form);
    expect(first).toMatchObject({ status: 302, location: `/admin/memberships/${membership.id}` });
    expect(toastOf(first.headers)).toEqual({
      type: "success",
      title: "Remboursement effectué",
      description: "10,50\u00a0€ remboursés ; il reste 38,50\u00a0€ remboursables.",
    });
    const second = await post(membership.id, form);
    expect(toastOf(second.headers)).toMatchObject({ type: "info", title: "Déjà remboursé" });
    expect(await refundRows()).toEqual([
      expect.objectContaining({
        invoiceId: invoice.id,
        amount: 1050,
        currency: "EUR",
        reason: "Doublon",
        actorUserId: await adminUserId(),
        actorLabel: admin().email,
      }),
    ]);

    const beyond = await refundOf(membership.id, invoice.id, { amount: "38.51", reason: "Erreur" });
    expect(beyond.data).toMatchObject({
      refund: { result: { error: { amount: ["Montant trop élevé : 38,50\u00a0€ au plus."] } } },
    });
    // All that is left: first the step that asks, with what it will send again; nothing refunded yet.
    const asked = await refundOf(membership.id, invoice.id, { amount: "38.5", reason: "Erreur technique" });
    expect(asked).toMatchObject({
      status: 200,
      data: { refund: { invoiceId: invoice.id, confirmFull: { amount: 3850, reason: "Erreur technique" } } },
    });
    expect(await refundRows()).toHaveLength(1);
    const rest = await refundOf(membership.id, invoice.id, {
      amount: "38.5",
      reason: "Erreur technique",
      confirmed: "yes",
    });
    expect(toastOf(rest.headers)).toMatchObject({
      description: "38,50\u00a0€ remboursés : la facture est entièrement remboursée.",
    });
    const [after] = await db().select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(after!.status).toBe("refunded");

    const { details, refundKeys: keysAfter } = await detailsOf(membership.id);
    expect(details.invoices[0]).toMatchObject({ status: "refunded", refunded: 4900, refundable: 0 });
    expect(keysAfter).toEqual({});
    expect(details.refunds.map((refund) => [refund.amount, refund.reason, refund.actorLabel])).toEqual([
      [3850, "Erreur technique", admin().email],
      [1050, "Doublon", admin().email],
    ]);
    const none = await refundOf(membership.id, invoice.id, { amount: "1", reason: "Encore" });
    expect(none).toMatchObject({ status: 302, location: `/admin/memberships/${membership.id}` });
    expect(toastOf(none.headers)).toEqual({
      type: "error",
      title: "Remboursement refusé",
      description: "Cette facture est déjà entièrement remboursée : rien n'a été remboursé.",
    });
    expect(await refundRows()).toHaveLength(2);
  });

  it.each([
    [{ amount: "abc", reason: "Doublon" }, "amount", "Montant invalide : un nombre positif, deux décimales au plus."],
    [{ amount: "0", reason: "Doublon" }, "amount", "Montant invalide : un nombre positif, deux décimales au plus."],
    [{ amount: "1.234", reason: "Doublon" }, "amount", "Montant invalide : un nombre positif, deux décimales au plus."],
    [{ amount: "", reason: "Doublon" }, "amount", "Indiquez le montant à rembourser."],
    [{ amount: "5", reason: "   " }, "reason", "Indiquez le motif du remboursement."],
  ])("refuses %j with 400 and a French message, refunding nothing", async (fields, field, message) => {
    const { membership, invoice } = await paidMember(db());
    const result = await refundOf(membership.id, invoice.id, fields);
    expect(result.status).toBe(400);
    expect(result.data).toMatchObject({ refund: { invoiceId: invoice.id, result: { error: { [field]: [message] } } } });
    expect(await refundRows()).toEqual([]);
  });

  it("refunds nothing of an unpaid invoice, nor of another membership's", async () => {
    const { membership, invoice } = await paidMember(db());
    await db().update(invoices).set({ status: "open", providerRef: null }).where(eq(invoices.id, invoice.id));
    const unpaid = await refundOf(membership.id, invoice.id, { amount: "5", reason: "Doublon" });
    expect(toastOf(unpaid.headers)).toEqual({
      type: "error",
      title: "Remboursement refusé",
      description: "Cette facture n'a pas été payée : rien n'a été remboursé.",
    });
    const customer = await insertCustomer(db());
    const other = await insertMembership(db(), { customerId: customer.id, status: "active" });
    expect((await refundOf(other.id, invoice.id, { amount: "5", reason: "Doublon" })).status).toBe(404);
    expect((await refundOf(membership.id, "not-an-id", { amount: "5", reason: "Doublon" })).status).toBe(404);
    expect(await refundRows()).toEqual([]);
  });
});
