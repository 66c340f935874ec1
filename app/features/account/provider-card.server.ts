import type { Database } from "~/db/client.server";
import type { SessionUser } from "~/features/auth/guards.server";
import type { HostedCardGateway, SavedPaymentMethod } from "~/features/payments/gateway";
import type { Toast } from "~/lib/toast";
import { cardReplaced, liveMembershipOf, NO_LIVE_MEMBERSHIP, recordMemberCard } from "./account-actions.server";

/** The signed-in member's live membership that the provider bills, with the provider's customer it is billed to. */
async function providerBilledMembership(db: Database, user: SessionUser) {
  const membership = await liveMembershipOf(db, user);
  if (!membership?.providerSubscriptionRef || !membership.providerCustomerRef) return null;
  return {
    ...membership,
    providerSubscriptionRef: membership.providerSubscriptionRef,
    providerCustomerRef: membership.providerCustomerRef,
  };
}

/**
 * Opens the check of a new card for a Stripe-billed membership (a SetupIntent for its customer),
 * which Stripe.js then confirms in the member's browser, 3-D Secure included. Null when there is
 * no such membership. `formKey` is the page's: a page reloaded opens another.
 */
export async function openProviderCardSetup(
  db: Database,
  gateway: HostedCardGateway,
  user: SessionUser,
  formKey: string,
): Promise<{ ref: string; clientSecret: string } | null> {
  const membership = await providerBilledMembership(db, user);
  if (!membership) return null;
  return gateway.openCardSetup({
    customerRef: membership.providerCustomerRef,
    idempotencyKey: `card-setup:${membership.id}:${formKey}`,
  });
}

/**
 * After Stripe.js confirmed the card's check: the setup is read from Stripe (never the browser's
 * word) and, kept for this membership's customer, the card becomes the customer's and the
 * subscription's default and the membership's card. A second post of the same setup changes nothing.
 */
export async function keepProviderCard(
  db: Database,
  gateway: HostedCardGateway,
  user: SessionUser,
  setupRef: string,
): Promise<Toast> {
  const membership = await providerBilledMembership(db, user);
  if (!membership) return NO_LIVE_MEMBERSHIP;
  const setup = await gateway.readCardSetup(setupRef);
  if (setup.customerRef !== membership.providerCustomerRef || setup.status !== "succeeded" || !setup.card) {
    return {
      type: "error",
      title: "Your card was not saved",
      description: "Your bank has not confirmed the new card. We still charge the card you had.",
    };
  }
  await chargeFeesTo(db, gateway, user, setup.card);
  return cardReplaced(membership, setup.card);
}

/**
 * A card the member's provider customer keeps (a SetupIntent's, or one that paid a fee) becomes the
 * one the next fees are charged to, at the provider and in the membership, its history saying who.
 * Nothing happens when it is the card already; the gateway is asked outside any transaction.
 */
export async function chargeFeesTo(
  db: Database,
  gateway: HostedCardGateway,
  user: SessionUser,
  card: SavedPaymentMethod,
) {
  const membership = await providerBilledMembership(db, user);
  if (!membership || card.ref === membership.paymentMethodRef) return;
  await gateway.useCardForFees({
    customerRef: membership.providerCustomerRef,
    subscriptionRef: membership.providerSubscriptionRef,
    paymentMethodRef: card.ref,
  });
  await recordMemberCard(db, membership, user, card);
}
