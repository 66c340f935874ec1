import { Form, Link } from "react-router";
import { LogOut } from "lucide-react";
import { SectionCard } from "~/components/layout/section-card";
import { SummaryList } from "~/components/layout/summary-list";
import { Button } from "~/components/ui/button";
import { StatusBadge } from "~/components/ui/status-badge";
import { VoucherView } from "~/features/booking/ui/voucher-view";
import type { AccountBooking } from "../account-bookings.server";
import type { MembershipWords } from "../membership-words";

const linkClass = "font-medium text-link underline underline-offset-4";

export function MembershipSection({ membership }: { membership: MembershipWords | null }) {
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
        <SummaryList rows={membership.rows} />
        <p className="text-sm text-muted-foreground">
          To cancel, use the{" "}
          <Link to="/unsubscribe" className={linkClass}>
            Unsubscribe
          </Link>{" "}
          page.
        </p>
      </div>
    </SectionCard>
  );
}

export function BookingsSection({ bookings }: { bookings: AccountBooking[] }) {
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
                <SummaryList rows={booking.rows} />
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
