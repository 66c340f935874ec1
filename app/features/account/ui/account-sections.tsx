import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { CreditCard, Download, LogOut } from "lucide-react";
import { SectionCard } from "~/components/layout/section-card";
import { SummaryList } from "~/components/layout/summary-list";
import { Button } from "~/components/ui/button";
import { ConfirmStep } from "~/components/ui/confirm-step";
import { StatusBadge } from "~/components/ui/status-badge";
import { VoucherView } from "~/features/booking/ui/voucher-view";
import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-terms";
import { WITHDRAWAL_SCOPE_LABELS } from "~/features/withdrawal/withdrawal-schema";
import type { AccountBooking } from "../account-bookings.server";
import type { MembershipWords } from "../membership-words";
import type { PlanChangeOffer } from "../plan-change-offer";

const linkClass = "font-medium text-link underline underline-offset-4";

/** The account's "are you sure?" step, for one of the account action's intents. */
function AccountConfirmStep({
  intent,
  children,
  ...step
}: {
  intent: string;
  question: string;
  consequence: string;
  confirmLabel: string;
  children?: ReactNode;
}) {
  return (
    <ConfirmStep action="/account" backTo="/account" backLabel="Go back" {...step}>
      <input type="hidden" name="intent" value={intent} />
      {children}
    </ConfirmStep>
  );
}

export function MembershipSection({
  membership,
  confirmCancel,
  cardForm,
}: {
  membership:
    | (MembershipWords & {
        cancellable: boolean;
        /** Where the card is replaced: the sandbox's form on this page, or Stripe's page; null when it cannot be. */
        replaceCard: string | null;
        /** "Pay €49 now" while a fee is unpaid, else null; with the page that pays it, or null for the button that does. */
        payNow: { label: string; page: string | null } | null;
        card: { number: string; qrSvg: string } | null;
        /** "1 of 2 free accesses left in December", or from when they start (ADR 029); null with none. */
        freeAccesses: string | null;
        /** The other plan and what moving to it does, or the move asked for (ADR 030). */
        planChange: (PlanChangeOffer & { key: string }) | null;
      })
    | null;
  confirmCancel: boolean;
  /** The open form for a new card, if any. */
  cardForm: ReactNode;
}) {
  if (!membership) {
    return (
      <SectionCard title="Membership" large>
        <p className="text-muted-foreground">
          There is no membership with this address. A membership&apos;s free trial starts with your first paid{" "}
          <Link to="/fast-track" className={linkClass}>
            fast track
          </Link>
          .
        </p>
      </SectionCard>
    );
  }
  return (
    <SectionCard title="Membership" large>
      <div className="grid gap-4">
        <p className="flex flex-wrap items-center gap-3">
          <span className="text-lg font-semibold">{membership.planName}</span>
          <StatusBadge
            tone={
              membership.status === "Active" || membership.status === "Free trial"
                ? "good"
                : membership.status === "Payment due"
                  ? "bad"
                  : "neutral"
            }
            data-testid="membership-status"
          >
            {membership.status}
          </StatusBadge>
        </p>
        <p data-testid="membership-next">{membership.next}</p>
        {membership.payNow?.page ? (
          <p>
            <Button asChild size="lg">
              <Link to={membership.payNow.page}>
                <CreditCard aria-hidden="true" />
                {membership.payNow.label}
              </Link>
            </Button>
          </p>
        ) : membership.payNow ? (
          <Form method="post" action="/account" aria-label="Pay the open fee">
            <input type="hidden" name="intent" value="pay-fee" />
            <Button type="submit" size="lg">
              <CreditCard aria-hidden="true" />
              {membership.payNow.label}
            </Button>
          </Form>
        ) : null}
        {membership.freeAccesses ? (
          <div className="grid gap-2 rounded-md bg-primary-light p-4 sm:grid-cols-[1fr_auto] sm:items-center">
            <p className="text-sm font-medium" data-testid="free-accesses">
              {membership.freeAccesses}
            </p>
            <Button asChild size="sm" variant="outline">
              <Link to="/fast-track-form">Book a fast track</Link>
            </Button>
          </div>
        ) : null}
        <div className="grid gap-6 sm:grid-cols-[1fr_auto] sm:items-start">
          <SummaryList rows={membership.rows} />
          {membership.card ? (
            <div className="grid justify-items-center gap-2 rounded-lg border p-3">
              <p className="text-sm font-semibold">Membership card</p>
              <div
                role="img"
                aria-label="Membership card QR code"
                className="w-36 max-w-full [&>svg]:h-auto [&>svg]:w-full"
                dangerouslySetInnerHTML={{ __html: membership.card.qrSvg }}
              />
              <p className="text-xs text-muted-foreground">Membership number</p>
              <p data-testid="membership-number" className="font-mono font-semibold tracking-wider">
                {membership.card.number}
              </p>
            </div>
          ) : null}
        </div>
        {cardForm ??
          (membership.replaceCard ? (
            <p className="text-sm text-muted-foreground">
              <Link to={membership.replaceCard} className={linkClass}>
                Replace your card
              </Link>
            </p>
          ) : null)}
        {membership.planChange ? <PlanChange offer={membership.planChange} /> : null}
        {membership.cancellable ? (
          confirmCancel ? (
            <AccountConfirmStep
              intent="cancel"
              question={`Cancel your ${membership.planName} membership?`}
              consequence={membership.cancelConsequence}
              confirmLabel="Yes, cancel my membership"
            />
          ) : (
            <div>
              <Button asChild variant="outline">
                <Link to="/account?confirm=cancel">Cancel membership</Link>
              </Button>
            </div>
          )
        ) : null}
      </div>
    </SectionCard>
  );
}

/** The other plan, what moving to it does now, and the button that names it; or the move already asked for. */
function PlanChange({ offer }: { offer: PlanChangeOffer & { key: string } }) {
  if ("scheduled" in offer) {
    return (
      <Form method="post" className="grid gap-3 rounded-md border p-4" data-testid="plan-change">
        <p className="text-sm font-medium">{offer.scheduled}</p>
        <input type="hidden" name="intent" value="keep-plan" />
        <div>
          <Button type="submit" variant="outline">
            {offer.keep}
          </Button>
        </div>
      </Form>
    );
  }
  return (
    <Form method="post" className="grid gap-3 rounded-md border p-4" data-testid="plan-change">
      <p className="text-sm font-semibold">Change plan</p>
      <p className="text-sm text-muted-foreground">{offer.explanation}</p>
      <input type="hidden" name="intent" value="change-plan" />
      <input type="hidden" name="plan" value={offer.to} />
      <input type="hidden" name="key" value={offer.key} />
      {offer.expectedAmount !== null ? (
        <input type="hidden" name="expectedAmount" value={offer.expectedAmount} />
      ) : null}
      <div>
        <Button type="submit">{offer.button}</Button>
      </div>
    </Form>
  );
}

/** The withdrawal step of one booking: from what (the fast track, the membership it started, or both). */
function WithdrawStep({ booking }: { booking: AccountBooking }) {
  return (
    <AccountConfirmStep
      intent="withdraw"
      question={`Withdraw from ${booking.orderNumber}?`}
      consequence={`Within ${MEMBERSHIP_TERMS.changeOfMindDays} days you may change your mind without giving a reason. We refund a fast track still to come in full, and the unused part of any membership fee; a membership you withdraw from ends today.`}
      confirmLabel="Yes, withdraw"
    >
      <input type="hidden" name="orderId" value={booking.id} />
      {booking.startedMembership ? (
        <fieldset className="grid gap-2 text-sm">
          <legend className="mb-1 font-medium">Withdraw from</legend>
          {(["fast-track", "membership", "both"] as const).map((value) => (
            <label key={value} className="flex items-center gap-2">
              <input type="radio" name="scope" value={value} defaultChecked={value === "both"} required />
              {WITHDRAWAL_SCOPE_LABELS[value]}
            </label>
          ))}
        </fieldset>
      ) : (
        <input type="hidden" name="scope" value="fast-track" />
      )}
    </AccountConfirmStep>
  );
}

export function BookingsSection({
  bookings,
  confirmWithdraw,
}: {
  bookings: AccountBooking[];
  /** The booking whose withdrawal step is open, if any. */
  confirmWithdraw: string | null;
}) {
  return (
    <section aria-labelledby="bookings-heading" className="grid gap-4">
      <h2 id="bookings-heading" className="text-xl font-semibold">
        Bookings
      </h2>
      {bookings.length === 0 ? (
        <p className="text-muted-foreground">
          No bookings with this address yet.{" "}
          <Link to="/fast-track" className={linkClass}>
            Book a fast track
          </Link>
          .
        </p>
      ) : (
        <ul className="grid gap-4">
          {bookings.map((booking) => (
            <li key={booking.id} data-testid="account-booking">
              <SectionCard
                title={booking.orderNumber}
                subtitle={<StatusBadge tone={booking.paid ? "good" : "neutral"}>{booking.status}</StatusBadge>}
                contentClassName="grid gap-6 sm:grid-cols-[1fr_auto] sm:items-start"
              >
                <div className="grid gap-4">
                  <SummaryList rows={booking.rows} />
                  {booking.withdrawUntil ? (
                    confirmWithdraw === booking.id ? (
                      <WithdrawStep booking={booking} />
                    ) : (
                      <p className="text-sm text-muted-foreground">
                        Changed your mind? You can withdraw until {booking.withdrawUntil}:{" "}
                        <Link to={`/account?withdraw=${booking.id}`} className={linkClass}>
                          withdraw from this booking
                        </Link>
                        .
                      </p>
                    )
                  ) : null}
                </div>
                {booking.voucher ? (
                  <VoucherView
                    voucher={booking.voucher}
                    label={`Voucher QR code for ${booking.orderNumber}`}
                    size="w-44"
                  />
                ) : null}
              </SectionCard>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export interface AccountInvoice {
  number: string;
  /** "Invoice" or "Credit note". */
  title: string;
  issued: string;
  total: string;
  /** The invoice a credit note corrects. */
  corrects: string | null;
}

export function InvoicesSection({ invoices }: { invoices: AccountInvoice[] }) {
  return (
    <SectionCard title="Invoices" subtitle="Every payment and refund, as a PDF with its VAT.">
      {invoices.length === 0 ? (
        <p className="text-muted-foreground">No invoices yet: one is made when a booking or a fee is paid.</p>
      ) : (
        <ul className="divide-y">
          {invoices.map((invoice) => (
            <li
              key={invoice.number}
              data-testid="account-invoice"
              className="flex flex-wrap items-center justify-between gap-x-6 gap-y-2 py-3 first:pt-0 last:pb-0"
            >
              <div>
                <p className="font-medium">
                  {invoice.title} {invoice.number}
                </p>
                <p className="text-sm text-muted-foreground">
                  {invoice.issued}
                  {invoice.corrects ? ` · corrects invoice ${invoice.corrects}` : null}
                </p>
              </div>
              <div className="flex items-center gap-4">
                <span className="font-medium tabular-nums" data-testid="invoice-total">
                  {invoice.total}
                </span>
                <Button asChild variant="outline" size="sm">
                  <a
                    href={`/account/invoices/${invoice.number}`}
                    download
                    aria-label={`Download ${invoice.title.toLowerCase()} ${invoice.number} (PDF)`}
                  >
                    <Download aria-hidden="true" />
                    PDF
                  </a>
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </SectionCard>
  );
}

export function YourDataSection({ confirmErase }: { confirmErase: boolean }) {
  return (
    <SectionCard
      title="Your data"
      subtitle={
        <>
          What we hold about you and why is in our{" "}
          <Link to="/privacy" className={linkClass}>
            Privacy Policy
          </Link>
          .
        </>
      }
    >
      <div className="grid gap-4">
        <div>
          <Button asChild variant="outline">
            <a href="/account/data.json" download>
              <Download aria-hidden="true" />
              Download my data
            </a>
          </Button>
        </div>
        {confirmErase ? (
          <AccountConfirmStep
            intent="erase"
            question="Erase your data?"
            consequence="We erase your account, bookings not paid, messages and e-mails, and end a membership at once. Paid orders and invoices stay, as the law requires, without your name."
            confirmLabel="Yes, erase my data"
          />
        ) : (
          <p className="text-sm text-muted-foreground">
            <Link to="/account?confirm=erase" className={linkClass}>
              Ask us to erase your data
            </Link>
          </p>
        )}
      </div>
    </SectionCard>
  );
}

export function SignOutButton() {
  return (
    <Form method="post" action="/sign-out">
      <input type="hidden" name="from" value="account" />
      <Button type="submit" variant="outline">
        <LogOut aria-hidden="true" />
        Sign out
      </Button>
    </Form>
  );
}
