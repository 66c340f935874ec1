import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { customers, invoices, orders } from "~/db/schema";
import { refundOrder } from "~/features/booking/order-refund.server";
import { invoiceDocuments } from "~/features/account/invoice-documents.server";
import { documentAmount, invoicePdf } from "~/features/account/invoice-pdf.server";
import { sandboxGateway } from "~/features/payments/sandbox-gateway.server";
import { loader as invoiceLoader } from "~/routes/account.invoices.$number";
import { siteConfig } from "../../../site.config";
import { book, membershipOf } from "../../support/integration/personal-data-fixtures";
import { installedTestDatabase } from "../../support/integration/installed-database";
import { createSignedInAccount, pageRequest } from "../../support/integration/requests";
import { routeArgs, routeResult } from "../../support/integration/route-result";
import { pdfText } from "../../support/pdf-text";
import { testDatabaseKind } from "../../support/test-database";

const db = installedTestDatabase();

/** A member whose booking was paid, whose first fee was paid on a fixed day, and who got part of the booking back. */
async function memberWithDocuments() {
  const account = await createSignedInAccount(db());
  const order = await book(db(), { email: account.email, pay: "paid", firstName: "Zoë", lastName: "Łukasz 王" });
  const membership = await membershipOf(db(), order.id);
  await db()
    .insert(invoices)
    .values({
      membershipId: membership.id,
      periodStart: new Date("2026-02-28T23:00:00Z"),
      periodEnd: new Date("2026-05-31T22:00:00Z"),
      amount: 4900,
      currency: "EUR",
      status: "paid",
      idempotencyKey: `documents-${membership.id}`,
      paidAt: new Date("2026-02-28T23:05:00Z"),
    });
  const refund = await refundOrder(db(), sandboxGateway, {
    orderId: order.id,
    refund: { amount: 500, reason: "Lane closed", idempotencyKey: `documents-${order.id}` },
    actor: { userId: null, label: "admin@example.com" },
  });
  expect(refund).toMatchObject({ kind: "refunded" });
  const [paid] = await db().select().from(orders).where(eq(orders.id, order.id));
  return { ...account, order: paid! };
}

const download = (number: string, cookie: string) =>
  invoiceLoader(routeArgs(pageRequest(`/account/invoices/${number}`, { cookie }), { number })) as Promise<Response>;

describe(`invoices and credit notes as the member downloads them, on ${testDatabaseKind()}`, () => {
  it("lists the booking's invoice, the fee's invoice and the refund's credit note, newest first", async () => {
    const member = await memberWithDocuments();
    const documents = await invoiceDocuments(db(), member.email.toUpperCase());
    expect(documents.map((document) => document.kind)).toEqual(["credit-note", "invoice", "invoice"]);
    const [creditNote, orderInvoice, feeInvoice] = documents;
    expect(orderInvoice).toMatchObject({ number: member.order.invoiceNumber, total: member.order.amount });
    expect(creditNote).toMatchObject({ correctsNumber: member.order.invoiceNumber, total: -500, vat: -87 });
    expect(creditNote!.number).toMatch(/^C\d{4}-\d{6}$/);
    expect(feeInvoice).toMatchObject({
      number: expect.stringMatching(/^2026-\d{6}$/),
      total: 4900,
      vatPercent: 21,
      vat: 850,
      lines: [{ description: "Medium membership, 1 March 2026 to 1 June 2026", amount: 4900 }],
    });
  });

  it("writes the legal fields, the VAT and the total into the PDF, and a name the fonts lack as best they can", async () => {
    const member = await memberWithDocuments();
    const [creditNote, orderInvoice] = await invoiceDocuments(db(), member.email);
    const invoiceText = pdfText(await invoicePdf(orderInvoice!));
    for (const expected of [
      siteConfig.company.legalName,
      siteConfig.company.address,
      `VAT number: ${siteConfig.company.vatNumber}`,
      `Invoice`,
      `No. ${member.order.invoiceNumber}`,
      "Zoë Lukasz ?",
      member.email,
      "VAT 21%",
      documentAmount(orderInvoice!.vat, "EUR"),
      documentAmount(member.order.amount, "EUR"),
      "Amounts in EUR, VAT included.",
    ]) {
      expect(invoiceText).toContain(expected);
    }
    const creditText = pdfText(await invoicePdf(creditNote!));
    expect(creditText).toContain("Credit note");
    expect(creditText).toContain(`Corrects invoice ${member.order.invoiceNumber}`);
    expect(creditText).toContain("-€5.00");
    expect(creditText).toContain("-€0.87");
  });

  it("gives the signed-in member their PDF, and a 404 for another person's number or a made-up one", async () => {
    const member = await memberWithDocuments();
    const other = await memberWithDocuments();
    const mine = await download(member.order.invoiceNumber!, member.cookie);
    expect(mine.status).toBe(200);
    expect(mine.headers.get("Content-Type")).toBe("application/pdf");
    expect(mine.headers.get("Cache-Control")).toBe("private, no-store");
    expect(mine.headers.get("Content-Disposition")).toBe(
      `attachment; filename="invoice-${member.order.invoiceNumber}.pdf"`,
    );
    expect(pdfText(new Uint8Array(await mine.arrayBuffer()))).toContain(`No. ${member.order.invoiceNumber}`);
    for (const number of [other.order.invoiceNumber!, "2026-99999999", "../data.json", "2026-000001' or 1=1"]) {
      const answer = await routeResult(() => download(number, member.cookie));
      expect(answer.status, number).toBe(404);
    }
    const signedOut = await routeResult(() =>
      invoiceLoader(routeArgs(pageRequest(`/account/invoices/${member.order.invoiceNumber}`), {})),
    );
    expect(signedOut).toMatchObject({ status: 302, location: "/account/sign-in" });
  });

  it("gives an erased customer's documents to nobody: they stay for the books, without the address", async () => {
    const member = await memberWithDocuments();
    await db().update(customers).set({ email: null }).where(eq(customers.id, member.order.customerId));
    expect(await invoiceDocuments(db(), member.email)).toEqual([]);
  });
});
