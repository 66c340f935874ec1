import { and, desc, eq } from "drizzle-orm";
import type { Database } from "~/db/client.server";
import { invoices } from "~/db/schema";
import type { SessionUser } from "~/features/auth/guards.server";
import { followInvoice, providerInvoiceKey, providerInvoiceRef } from "~/features/memberships/provider-billing.server";
import type { HostedCardGateway } from "~/features/payments/gateway";
import type { CurrencyCode } from "~/lib/currency";
import type { Toast } from "~/lib/toast";
import { FEE_PAID, liveMembershipOf, NOTHING_DUE } from "./account-actions.server";
import { chargeFeesTo } from "./provider-card.server";

/** A provider-billed membership's unpaid fee, as its member pays it in the browser with the provider's script. */
export interface ProviderFee {
  /** Minor units of `currency`. */
  amount: number;
  currency: CurrencyCode;
  /** Handed to Stripe.js, which confirms the invoice's own payment: the fee can only be paid once. */
  clientSecret: string;
  /** The bank holds the payment for its card holder's confirmation (3-D Secure). */
  awaitsAuthentication: boolean;
  /** The card to confirm the fee with, or to try it with again. */
  card: { brand: string; last4: string; ref: string } | null;
  /** The provider's invoice, which the page names when it asks the server to look at the outcome. */
  invoiceRef: string;
}

/** The past-due membership of the signed-in address that the provider bills, and its open invoice (ours, theirs). */
async function openFeeOf(db: Database, gateway: HostedCardGateway, user: SessionUser) {
  const membership = await liveMembershipOf(db, user);
  if (!membership?.providerSubscriptionRef || membership.status !== "past_due") return null;
  const [invoice] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.membershipId, membership.id), eq(invoices.status, "open")))
    .orderBy(desc(invoices.periodStart))
    .limit(1);
  const ref = invoice && providerInvoiceRef(gateway.name, invoice.idempotencyKey);
  return ref ? { membership, ref } : null;
}

/** What the fee page offers: the open fee's payment as the provider has it now, or null when nothing is due. */
export async function providerFee(
  db: Database,
  gateway: HostedCardGateway,
  user: SessionUser,
): Promise<ProviderFee | null> {
  const open = await openFeeOf(db, gateway, user);
  if (!open) return null;
  const invoice = await gateway.readInvoice(open.ref);
  if (invoice.status !== "open" || !invoice.paymentRef) return null;
  const payment = await gateway.readPayment(invoice.paymentRef);
  if (payment.status === "succeeded" || payment.status === "processing" || payment.status === "cancelled") return null;
  return {
    amount: invoice.amountDue,
    currency: invoice.currency.toUpperCase() as CurrencyCode,
    clientSecret: payment.clientSecret,
    awaitsAuthentication: payment.status === "needs-action",
    // Held for the bank: the card it waits on. Declined: the card on file, which may be new since.
    card:
      payment.status === "needs-action"
        ? (payment.card ?? null)
        : {
            brand: open.membership.cardBrand,
            last4: open.membership.cardLast4,
            ref: open.membership.paymentMethodRef,
          },
    invoiceRef: open.ref,
  };
}

/**
 * After Stripe.js confirmed the fee's payment in the member's browser: the invoice is read from the
 * provider (never taken from the browser) and followed at once, as its webhook does too (whichever
 * comes second finds it paid and does nothing). A new card that paid becomes the one the next fees
 * are charged to. `invoiceRef` is the provider's invoice the page was paying: one of this member's.
 */
export async function settleProviderFee(
  db: Database,
  gateway: HostedCardGateway,
  user: SessionUser,
  { invoiceRef, now, origin }: { invoiceRef: string; now: Date; origin: string },
): Promise<Toast> {
  const membership = await liveMembershipOf(db, user);
  const [ours] = membership?.providerSubscriptionRef
    ? await db
        .select({ id: invoices.id })
        .from(invoices)
        .where(
          and(
            eq(invoices.membershipId, membership.id),
            eq(invoices.idempotencyKey, providerInvoiceKey(gateway.name, invoiceRef)),
          ),
        )
    : [];
  if (!membership || !ours) return NOTHING_DUE;
  const state = await gateway.readInvoice(invoiceRef);
  if (state.status !== "paid") {
    return {
      type: "error",
      title: "Your fee is not paid yet",
      description: "Your bank has not confirmed the payment. Please try again, or pay with another card.",
    };
  }
  const card = state.paymentRef ? (await gateway.readPayment(state.paymentRef)).card : undefined;
  // Before the receipt is written, so that it names the card that paid.
  if (card) await chargeFeesTo(db, gateway, user, card);
  await followInvoice(db, gateway, invoiceRef, { claim: async () => true, now, origin });
  return FEE_PAID;
}
