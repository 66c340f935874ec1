import { allowanceLine, memberAllowance } from "~/features/memberships/fast-track-allowance.server";
import { planChangeOffer } from "~/features/account/plan-change-offer";
import { redirect } from "react-router";
import type { DocumentHandle } from "~/root";
import type { Route } from "./+types/account";
import { PageHeading } from "~/components/layout/page-heading";
import { ACCOUNT_SIGN_IN_PATH } from "~/components/layout/nav-links";
import { database } from "~/db/client.server";
import {
  cancelOwnMembership,
  payOwnFee,
  replaceOwnCard,
  requestOwnErasure,
  withdrawOwnBooking,
  changeOwnPlan,
  keepOwnPlan,
} from "~/features/account/account-actions.server";
import { PLAN_IDS } from "~/features/plans/plans";
import { WITHDRAWAL_SCOPES } from "~/db/enums";
import { paymentGateway } from "~/features/payments/live-gateway.server";
import { otherPlanQuote } from "~/features/memberships/plan-change.server";
import type { Database } from "~/db/client.server";
import { z } from "~/lib/zod";
import { accountBookings } from "~/features/account/account-bookings.server";
import { accountOverview, type AccountMembership } from "~/features/account/account.server";
import { membershipWords } from "~/features/account/membership-words";
import { privatePageHeaders } from "~/features/account/private-page";
import {
  BookingsSection,
  InvoicesSection,
  MembershipSection,
  SignOutButton,
  YourDataSection,
} from "~/features/account/ui/account-sections";
import { getOptionalUser } from "~/features/auth/guards.server";
import { voucherCheckUrl, voucherQrSvg } from "~/features/booking/voucher.server";
import { membershipCardCode, membershipNumber } from "~/features/memberships/membership-card.server";
import { formatMemberDay } from "~/features/memberships/membership-mails";
import { isLiveMembership } from "~/features/memberships/membership-status";
import { invoiceDocuments } from "~/features/account/invoice-documents.server";
import { documentAmount, documentTitle } from "~/features/account/invoice-pdf.server";
import { readFormData } from "~/lib/form-data.server";
import { countClientRequest, TOO_MANY_REQUESTS } from "~/lib/rate-limit.server";
import { handleFormAction } from "~/lib/form-action.server";
import { formatAmount } from "~/lib/currency";
import { CARD_SECRETS, expiryYears } from "~/features/payments/card";
import type { CardFormGateway, PaymentGateway } from "~/features/payments/gateway";
import type { SessionUser } from "~/features/auth/guards.server";
import { replaceCardSchema } from "~/features/account/replace-card-schema";
import { ReplaceCardForm } from "~/features/account/ui/replace-card-form";
import { randomUUID } from "node:crypto";
import { siteOrigin } from "~/lib/site-origin.server";
import { redirectWithToast } from "~/lib/toast.server";
import { NOINDEX, pageMeta } from "~/platform/seo/page-meta";

export const handle = { hydrate: false } satisfies DocumentHandle;

export const headers = privatePageHeaders;

export const meta: Route.MetaFunction = () => [...pageMeta({ title: "Your account" }), NOINDEX];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getOptionalUser(request);
  if (!user) throw redirect(ACCOUNT_SIGN_IN_PATH);
  const db = database().db;
  const now = new Date();
  const [{ membership, orders }, documents, allowance] = await Promise.all([
    accountOverview(db, user.email),
    invoiceDocuments(db, user.email),
    memberAllowance(db, user.email, now),
  ]);
  const query = new URL(request.url).searchParams;
  const confirm = query.get("confirm");
  const origin = siteOrigin();
  const gateway = paymentGateway();
  const live = membership !== null && isLiveMembership(membership.status);
  return {
    email: user.email,
    membership: membership
      ? {
          ...membershipWords(membership),
          cancellable: live && !membership.cancelAtPeriodEnd,
          replaceCard: live ? replaceCardAt(membership, gateway) : null,
          payNow: membership.status === "past_due" ? payNow(membership, gateway) : null,
          freeAccesses: allowance && allowanceLine(allowance),
          planChange: await planChangeWithKey(db, gateway, membership, now),
          // The digital card the desk scans: its QR carries the signed code, the number is read out.
          card: live
            ? {
                number: membershipNumber(membership.id),
                qrSvg: await voucherQrSvg(voucherCheckUrl(origin, membershipCardCode(membership.id))),
              }
            : null,
        }
      : null,
    bookings: await accountBookings(orders, origin, now),
    invoices: documents.map((document) => ({
      number: document.number,
      title: documentTitle(document),
      issued: formatMemberDay(document.issuedAt),
      total: documentAmount(document.total, document.currency),
      corrects: document.correctsNumber,
    })),
    // `?confirm=` shows the step that confirms a cancellation or an erasure request, before its button.
    confirm: confirm === "cancel" || confirm === "erase" ? confirm : null,
    // `?withdraw=<order id>` shows that booking's withdrawal step.
    confirmWithdraw: query.get("withdraw"),
    // `?card=replace` shows the form for a new card.
    replaceCard: query.get("card") === "replace" ? { expiryYears: expiryYears(now), formKey: randomUUID() } : null,
  };
}

/** The account's plan change, with a key of its own: the same form sent twice changes the plan once. */
async function planChangeWithKey(db: Database, gateway: PaymentGateway, membership: AccountMembership, now: Date) {
  const change = await otherPlanQuote(db, gateway, membership.id, now);
  const offer = change ? planChangeOffer(membership, change) : null;
  return offer && { ...offer, key: randomUUID() };
}

/** The sandbox's card form is on this page; a Stripe-billed member's card is checked by Stripe.js on its own page. */
function replaceCardAt(membership: AccountMembership, gateway: PaymentGateway) {
  if (!membership.providerBilled) return gateway.kind === "card-form" ? "/account?card=replace" : null;
  return gateway.kind === "hosted-card" ? "/account/card" : null;
}

/** How a past-due fee is paid: the sandbox charges the card on file from a button; Stripe's is paid on its own page, with Stripe.js. */
function payNow(membership: AccountMembership, gateway: PaymentGateway) {
  const fee = formatAmount(membership.price, membership.currency);
  const label = membership.awaitsConfirmation ? `Confirm the payment of ${fee}` : `Pay ${fee} now`;
  if (!membership.providerBilled) return gateway.kind === "card-form" ? { label, page: null } : null;
  return gateway.kind === "hosted-card" ? { label, page: "/account/pay" } : null;
}

export async function action({ request }: Route.ActionArgs) {
  const user = await getOptionalUser(request);
  if (!user) throw redirect(ACCOUNT_SIGN_IN_PATH);
  const db = database().db;
  // The card form reads the request itself, through the form kit.
  const copy = request.clone();
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  const now = new Date();
  const gateway = paymentGateway();
  if (intent === "replace-card" || intent === "pay-fee") {
    if (gateway.kind !== "card-form") {
      return redirectWithToast("/account", {
        type: "error",
        title: "This membership's card is handled by our payment provider",
        description: "Please contact us to change it.",
      });
    }
    if (intent === "replace-card") return replaceCard(copy, gateway, user);
    // A charge of the card, as the payment page's: counted against the same limit.
    const limit = await countClientRequest(db, "payment", request);
    if (limit.limited) return redirectWithToast("/account", { type: "error", title: TOO_MANY_REQUESTS });
    return redirectWithToast("/account", await payOwnFee(db, gateway, user, { now, origin: siteOrigin() }));
  }
  if (intent === "change-plan") {
    const form = planChangeForm.safeParse(Object.fromEntries(formData));
    if (!form.success) {
      return redirectWithToast("/account", { type: "error", title: "This form could not be read. Please try again." });
    }
    // It may charge the card, as the payment page does: counted against the same limit.
    const limit = await countClientRequest(db, "payment", request);
    if (limit.limited) return redirectWithToast("/account", { type: "error", title: TOO_MANY_REQUESTS });
    const { plan, expectedAmount, key } = form.data;
    return redirectWithToast(
      "/account",
      await changeOwnPlan(db, gateway, user, {
        to: plan,
        expectedAmount: expectedAmount ?? null,
        idempotencyKey: key,
        now,
        origin: siteOrigin(),
      }),
    );
  }
  if (intent === "keep-plan") return redirectWithToast("/account", await keepOwnPlan(db, gateway, user, siteOrigin()));
  if (intent === "cancel") {
    return redirectWithToast("/account", await cancelOwnMembership(db, user, { now, origin: siteOrigin() }));
  }
  if (intent === "erase") return redirectWithToast("/account", await requestOwnErasure(db, user, now));
  if (intent === "withdraw") {
    const scope = z.enum(WITHDRAWAL_SCOPES).safeParse(formData.get("scope"));
    const orderId = formData.get("orderId");
    const answer =
      scope.success && typeof orderId === "string"
        ? await withdrawOwnBooking(db, gateway, user, {
            orderId,
            scope: scope.data,
            now,
            origin: siteOrigin(),
          })
        : null;
    return redirectWithToast(
      "/account",
      answer ?? { type: "error", title: "Choose one of your bookings, and what you withdraw from." },
    );
  }
  return redirectWithToast("/account", { type: "error", title: "This form could not be read. Please try again." });
}

/** The sandbox's new card: checked with the bank, not charged, kept for the next fees. */
function replaceCard(request: Request, gateway: CardFormGateway, user: SessionUser) {
  return handleFormAction({
    request,
    form: "replace-card",
    schema: replaceCardSchema(new Date()),
    rateLimit: "payment",
    hideFields: CARD_SECRETS,
    refusalData: () => ({ formKey: randomUUID() }),
    save: ({ cardNumber, expiryMonth, expiryYear, cvv, formKey }) =>
      replaceOwnCard(database().db, gateway, user, {
        card: { number: cardNumber, expiryMonth, expiryYear, cvv },
        idempotencyKey: formKey,
      }),
    failure: { log: "card replacement failed", formError: "Your card could not be saved. Please try again." },
    answer: (outcome, { refuse }) =>
      "saved" in outcome ? redirectWithToast("/account", outcome.saved) : refuse(402, [outcome.refused]),
  });
}

export default function AccountPage({
  loaderData: { email, membership, bookings, invoices, confirm, confirmWithdraw, replaceCard },
  actionData,
}: Route.ComponentProps) {
  const cardRefused = actionData && "result" in actionData ? actionData : null;
  const cardForm = cardRefused
    ? { expiryYears: expiryYears(new Date()), formKey: cardRefused.formKey, lastResult: cardRefused.result }
    : replaceCard && { ...replaceCard, lastResult: undefined };
  return (
    <>
      <PageHeading title="Your account" lead={`Signed in as ${email}`} />
      <div className="mx-auto grid w-full max-w-4xl gap-8 px-4 pb-16 sm:px-6">
        <MembershipSection
          membership={membership}
          confirmCancel={confirm === "cancel"}
          // A new key after each refusal: the form starts again empty (the number and CVV are never kept).
          cardForm={cardForm ? <ReplaceCardForm key={cardForm.formKey} {...cardForm} /> : null}
        />
        <BookingsSection bookings={bookings} confirmWithdraw={confirmWithdraw} />
        <InvoicesSection invoices={invoices} />
        <YourDataSection confirmErase={confirm === "erase"} />
        <div>
          <SignOutButton />
        </div>
      </div>
    </>
  );
}

/** The account's plan change form: the plan, the difference the page showed (an upgrade), the form's key. */
const planChangeForm = z.object({
  intent: z.literal("change-plan"),
  plan: z.enum(PLAN_IDS),
  expectedAmount: z.coerce.number().int().nonnegative().max(1_000_000).optional(),
  key: z.uuid(),
});
