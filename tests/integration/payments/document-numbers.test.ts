import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { documentNumberSeries, invoices, orders, outbox, refunds } from "~/db/schema";
import {
  confirmationMailTemplate,
  type ConfirmationMailData,
} from "~/features/booking/confirmation-mail-template.server";
import { changeOrderStatus } from "~/features/booking/order-status.server";
import { refundOrder } from "~/features/booking/order-refund.server";
import { SYSTEM_ACTOR } from "~/lib/actor";
import { sandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { book, membershipOf, payByCard } from "../../support/integration/personal-data-fixtures";
import { installedTestDatabase } from "../../support/integration/installed-database";
import { waitingForTheSeries } from "../../support/integration/series-wait";
import { testDatabaseKind } from "../../support/test-database";

const db = installedTestDatabase();

const INVOICE_NUMBER = /^(\d{4})-(\d{6})$/;
const sequence = (number: string) => Number(INVOICE_NUMBER.exec(number)![2]);

async function invoiceNumberOf(orderId: string) {
  const [order] = await db().select({ number: orders.invoiceNumber }).from(orders).where(eq(orders.id, orderId));
  return order!.number;
}

describe(`invoice and credit-note numbers, on ${testDatabaseKind()}`, () => {
  it("numbers 20 payments made at once from one series, without a gap or a repeat", async () => {
    const unpaid = await Promise.all(Array.from({ length: 20 }, () => book(db())));
    await Promise.all(unpaid.map((order) => payByCard(db(), order.id, "paid")));
    const numbered = await db()
      .select({ number: orders.invoiceNumber })
      .from(orders)
      .where(
        inArray(
          orders.id,
          unpaid.map((order) => order.id),
        ),
      );
    const numbers = numbered.map((row) => row.number!);
    expect(numbers.every((number) => INVOICE_NUMBER.test(number))).toBe(true);
    const sequences = numbers.map(sequence).sort((a, b) => a - b);
    expect(new Set(sequences).size).toBe(20);
    expect(sequences.at(-1)! - sequences[0]!).toBe(19);
  });

  it.runIf(testDatabaseKind() === "postgres")(
    "draws a card payment's number in the one statement that settles it, and the confirmation reads the number when composed",
    async () => {
      const email = "series.wait@example.com";
      const order = await book(db(), { email });
      const waiting = await waitingForTheSeries(db(), () => payByCard(db(), order.id, "paid"));
      // The settling statement, run on its own: no transaction around it to hold the series longer.
      expect(waiting).toMatch(/^with "locked" as/);
      const [paid] = await db()
        .select({ status: orders.status, invoiceNumber: orders.invoiceNumber, code: orders.voucherShortCode })
        .from(orders)
        .where(eq(orders.id, order.id));
      expect(paid).toMatchObject({ status: "paid", invoiceNumber: expect.stringMatching(INVOICE_NUMBER) });
      const [mail] = await db()
        .select({ data: outbox.templateData })
        .from(outbox)
        .where(and(eq(outbox.to, email), eq(outbox.template, "booking-confirmation")));
      expect(mail!.data).toMatchObject({ voucherShortCode: paid!.code });
      expect(mail!.data).not.toHaveProperty("invoiceNumber");
      const composed = await confirmationMailTemplate.compose(mail!.data as ConfirmationMailData, db());
      expect(composed.text).toContain(paid!.invoiceNumber!);
    },
  );

  it.runIf(testDatabaseKind() === "postgres")(
    "draws the number of an order paid in a transaction of several statements at its commit: the series is held by the commit alone",
    async () => {
      const order = await book(db());
      const waiting = await waitingForTheSeries(db(), () =>
        changeOrderStatus(db(), { orderId: order.id, to: "paid", actor: SYSTEM_ACTOR }),
      );
      expect(waiting).toMatch(/^commit$/i);
      expect(await invoiceNumberOf(order.id)).toMatch(INVOICE_NUMBER);
    },
  );

  it("gives a rolled-back payment's number back, and never numbers an unpaid or declined order", async () => {
    const declined = await book(db(), { pay: "declined" });
    expect(await invoiceNumberOf(declined.id)).toBeNull();
    const first = await book(db(), { pay: "paid" });
    const rolledBack = await book(db());
    await expect(
      db().transaction(async (tx) => {
        await tx.update(orders).set({ status: "paid" }).where(eq(orders.id, rolledBack.id));
        throw new Error("the payment's transaction fails after the number was drawn");
      }),
    ).rejects.toThrow();
    expect(await invoiceNumberOf(rolledBack.id)).toBeNull();
    const next = await book(db(), { pay: "paid" });
    expect(sequence((await invoiceNumberOf(next.id))!)).toBe(sequence((await invoiceNumberOf(first.id))!) + 1);
  });

  it("numbers a fee in the Amsterdam year it was paid: 23:30 UTC on 31 December is already next year", async () => {
    const order = await book(db(), { pay: "paid" });
    const membership = await membershipOf(db(), order.id);
    const paidAt = (iso: string) => new Date(iso);
    const [late, early] = await db()
      .insert(invoices)
      .values(
        [
          ["2031-12-31T23:30:00Z", "2032-01-01T00:00:00Z"],
          ["2031-12-31T22:59:00Z", "2031-10-01T00:00:00Z"],
        ].map(([paid, start]) => ({
          membershipId: membership.id,
          periodStart: paidAt(start!),
          periodEnd: paidAt("2032-03-31T00:00:00Z"),
          amount: 4900,
          currency: "EUR" as const,
          status: "paid" as const,
          idempotencyKey: `number-test-${start}`,
          paidAt: paidAt(paid!),
        })),
      )
      .returning({ number: invoices.number });
    expect(late!.number).toBe("2032-000001");
    expect(early!.number).toBe("2031-000001");
    expect(
      await db()
        .select()
        .from(documentNumberSeries)
        .where(sql`${documentNumberSeries.year} in (2031, 2032)`),
    ).toEqual(
      expect.arrayContaining([
        { kind: "invoice", year: 2031, last: 1 },
        { kind: "invoice", year: 2032, last: 1 },
      ]),
    );
  });

  it("goes on past 999,999 in a year with a seventh digit, rather than cut the number to six", async () => {
    const order = await book(db(), { pay: "paid" });
    const membership = await membershipOf(db(), order.id);
    await db().insert(documentNumberSeries).values({ kind: "invoice", year: 2033, last: 999_998 });
    const numbers = await db()
      .insert(invoices)
      .values(
        ["2033-03-01T09:00:00Z", "2033-06-01T09:00:00Z"].map((paid) => ({
          membershipId: membership.id,
          periodStart: new Date(paid),
          periodEnd: new Date("2033-09-01T09:00:00Z"),
          amount: 4900,
          currency: "EUR" as const,
          status: "paid" as const,
          idempotencyKey: `number-test-${paid}`,
          paidAt: new Date(paid),
        })),
      )
      .returning({ number: invoices.number });
    expect(numbers.map((row) => row.number).sort()).toEqual(["2033-1000000", "2033-999999"]);
  });

  it("gives each refund made a credit-note number of its own series", async () => {
    const order = await book(db(), { pay: "paid" });
    const actor = { userId: null, label: "admin@example.com" };
    for (const [amount, key] of [
      [500, "first-part"],
      [300, "second-part"],
    ] as const) {
      const outcome = await refundOrder(db(), sandboxGateway, {
        orderId: order.id,
        refund: { amount, reason: "Lane closed", idempotencyKey: `${order.id}-${key}` },
        actor,
      });
      expect(outcome).toMatchObject({ kind: "refunded" });
    }
    const made = await db()
      .select({ number: refunds.creditNoteNumber, createdAt: refunds.createdAt })
      .from(refunds)
      .where(eq(refunds.orderId, order.id))
      .orderBy(refunds.createdAt);
    const [first, second] = made.map((refund) => /^C(\d{4})-(\d{6})$/.exec(refund.number!)!);
    expect(Number(second![2]) - Number(first![2])).toBe(1);
  });
});
