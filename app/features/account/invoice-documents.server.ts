import { and, eq, isNotNull, sql, type SQL } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { customers, invoices, memberships, orderEvents, orders, refunds, type CurrencyCode } from "~/db/schema";
import { formatFlightDate } from "~/features/booking/flight-date";
import { describePassengers } from "~/features/booking/passengers";
import { formatMemberDay } from "~/features/memberships/membership-mails";
import { siteConfig } from "../../../site.config";
import { vatIncluded, vatRateOn } from "~/features/payments/vat";

/**
 * An invoice (a paid order or fee) or a credit note (a refund made), as its PDF and the member's
 * list of invoices give it. Amounts are minor units of `currency`, VAT included; a credit note's
 * are negative.
 */
export interface InvoiceDocument {
  kind: "invoice" | "credit-note";
  /** "2026-000123", or "C2026-000007" for a credit note (ADR 028). */
  number: string;
  /** The invoice a credit note corrects. */
  correctsNumber: string | null;
  issuedAt: Date;
  customer: { name: string; email: string };
  lines: { description: string; amount: number }[];
  total: number;
  vatPercent: number;
  vat: number;
  currency: CurrencyCode;
}

/** How many documents of each kind the account lists, newest first. */
export const ACCOUNT_DOCUMENTS_SHOWN = 50;

interface Source {
  number: string;
  correctsNumber: string | null;
  issuedAt: Date;
  name: string;
  email: string;
  description: string;
  amount: number;
  currency: CurrencyCode;
}

function document(kind: InvoiceDocument["kind"], source: Source): InvoiceDocument {
  const total = kind === "credit-note" ? -source.amount : source.amount;
  const vatPercent = vatRateOn(source.issuedAt, siteConfig.invoices.vatRates);
  return {
    kind,
    number: source.number,
    correctsNumber: source.correctsNumber,
    issuedAt: source.issuedAt,
    customer: { name: source.name, email: source.email },
    lines: [{ description: source.description, amount: total }],
    total,
    vatPercent,
    vat: vatIncluded(total, vatPercent),
    currency: source.currency,
  };
}

const asDate = (value: string | Date) => new Date(value);

function orderLine(order: {
  serviceType: string;
  airport: string | null;
  flightDate: string | null;
  adults: number;
  children: number;
}): string {
  const where = order.airport ?? "airport not specified";
  const when = order.flightDate ? formatFlightDate(order.flightDate) : "date not specified";
  return `${order.serviceType}, ${where}, ${when}, ${describePassengers(order)}`;
}

function feeLine(fee: { plan: keyof typeof siteConfig.pricing; periodStart: Date; periodEnd: Date }): string {
  const plan = siteConfig.pricing[fee.plan].name;
  return `${plan} membership, ${formatMemberDay(fee.periodStart)} to ${formatMemberDay(fee.periodEnd)}`;
}

const orderColumns = {
  serviceType: orders.serviceType,
  airport: orders.airport,
  flightDate: orders.flightDate,
  adults: orders.adults,
  children: orders.children,
};

/** When an order was paid: its first change to 'paid', when its invoice number was given. */
const orderPaidAt = sql<Date>`coalesce((select min(${orderEvents.createdAt}) from ${orderEvents}
  where ${orderEvents.orderId} = ${orders.id} and ${orderEvents.toStatus} = 'paid'), ${orders.updatedAt})`.mapWith(
  asDate,
);

/**
 * The invoices and credit notes of an address, newest first, or the one numbered `number`. Found by
 * the address's customer (one per address, ADR 027), so nobody reaches another person's document by
 * guessing its number.
 */
export async function invoiceDocuments(db: Database, email: string, number?: string): Promise<InvoiceDocument[]> {
  const address = email.trim().toLowerCase();
  const only = (column: SQL) => (number === undefined ? undefined : sql`${column} = ${number}`);
  const customer = { name: customers.fullName, email: sql<string>`${customers.email}` };
  const [orderRows, feeRows, orderRefundRows, feeRefundRows] = await Promise.all([
    db
      .select({
        number: sql<string>`${orders.invoiceNumber}`,
        issuedAt: orderPaidAt,
        amount: orders.amount,
        currency: orders.currency,
        ...orderColumns,
        ...customer,
      })
      .from(orders)
      .innerJoin(customers, eq(customers.id, orders.customerId))
      .where(and(eq(customers.email, address), isNotNull(orders.invoiceNumber), only(sql`${orders.invoiceNumber}`)))
      .orderBy(sql`${orders.invoiceNumber} desc`)
      .limit(ACCOUNT_DOCUMENTS_SHOWN),
    db
      .select({
        number: sql<string>`${invoices.number}`,
        issuedAt: sql<Date>`coalesce(${invoices.paidAt}, ${invoices.updatedAt})`.mapWith(asDate),
        amount: invoices.amount,
        currency: invoices.currency,
        plan: memberships.plan,
        periodStart: invoices.periodStart,
        periodEnd: invoices.periodEnd,
        ...customer,
      })
      .from(invoices)
      .innerJoin(memberships, eq(memberships.id, invoices.membershipId))
      .innerJoin(customers, eq(customers.id, memberships.customerId))
      .where(and(eq(customers.email, address), isNotNull(invoices.number), only(sql`${invoices.number}`)))
      .orderBy(sql`${invoices.number} desc`)
      .limit(ACCOUNT_DOCUMENTS_SHOWN),
    db
      .select({
        number: sql<string>`${refunds.creditNoteNumber}`,
        correctsNumber: orders.invoiceNumber,
        issuedAt: refunds.createdAt,
        amount: refunds.amount,
        currency: refunds.currency,
        ...orderColumns,
        ...customer,
      })
      .from(refunds)
      .innerJoin(orders, eq(orders.id, refunds.orderId))
      .innerJoin(customers, eq(customers.id, orders.customerId))
      .where(
        and(eq(customers.email, address), isNotNull(refunds.creditNoteNumber), only(sql`${refunds.creditNoteNumber}`)),
      )
      .orderBy(sql`${refunds.creditNoteNumber} desc`)
      .limit(ACCOUNT_DOCUMENTS_SHOWN),
    db
      .select({
        number: sql<string>`${refunds.creditNoteNumber}`,
        correctsNumber: invoices.number,
        issuedAt: refunds.createdAt,
        amount: refunds.amount,
        currency: refunds.currency,
        plan: memberships.plan,
        periodStart: invoices.periodStart,
        periodEnd: invoices.periodEnd,
        ...customer,
      })
      .from(refunds)
      .innerJoin(invoices, eq(invoices.id, refunds.invoiceId))
      .innerJoin(memberships, eq(memberships.id, invoices.membershipId))
      .innerJoin(customers, eq(customers.id, memberships.customerId))
      .where(
        and(eq(customers.email, address), isNotNull(refunds.creditNoteNumber), only(sql`${refunds.creditNoteNumber}`)),
      )
      .orderBy(sql`${refunds.creditNoteNumber} desc`)
      .limit(ACCOUNT_DOCUMENTS_SHOWN),
  ]);
  const documents = [
    ...orderRows.map((row) => document("invoice", { ...row, correctsNumber: null, description: orderLine(row) })),
    ...feeRows.map((row) => document("invoice", { ...row, correctsNumber: null, description: feeLine(row) })),
    ...orderRefundRows.map((row) => document("credit-note", { ...row, description: `Refund: ${orderLine(row)}` })),
    ...feeRefundRows.map((row) => document("credit-note", { ...row, description: `Refund: ${feeLine(row)}` })),
  ];
  return documents.sort((a, b) => b.issuedAt.getTime() - a.issuedAt.getTime() || b.number.localeCompare(a.number));
}
