import { redirect } from "react-router";
import type { DocumentHandle } from "~/root";
import type { Route } from "./+types/account";
import { PageHeading } from "~/components/layout/page-heading";
import { ACCOUNT_SIGN_IN_PATH } from "~/components/layout/nav-links";
import { database } from "~/db/client.server";
import { accountBookings } from "~/features/account/account-bookings.server";
import { accountOverview } from "~/features/account/account.server";
import { membershipWords } from "~/features/account/membership-words";
import { privatePageHeaders } from "~/features/account/private-page";
import { BookingsSection, MembershipSection, SignOutButton } from "~/features/account/ui/account-sections";
import { getOptionalUser } from "~/features/auth/guards.server";
import { siteOrigin } from "~/lib/site-origin.server";
import { NOINDEX, pageMeta } from "~/platform/seo/page-meta";

export const handle = { hydrate: false } satisfies DocumentHandle;

export const headers = privatePageHeaders;

export const meta: Route.MetaFunction = () => [...pageMeta({ title: "Your account" }), NOINDEX];

export async function loader({ request }: Route.LoaderArgs) {
  const user = await getOptionalUser(request);
  if (!user) throw redirect(ACCOUNT_SIGN_IN_PATH);
  const { membership, orders } = await accountOverview(database().db, user.email);
  return {
    email: user.email,
    membership: membership ? membershipWords(membership) : null,
    bookings: await accountBookings(orders, siteOrigin(request), new Date()),
  };
}

export default function AccountPage({ loaderData: { email, membership, bookings } }: Route.ComponentProps) {
  return (
    <>
      <PageHeading title="Your account" lead={`Signed in as ${email}`} />
      <div className="mx-auto grid w-full max-w-4xl gap-8 px-4 pb-16 sm:px-6">
        <MembershipSection membership={membership} />
        <BookingsSection bookings={bookings} />
        <div>
          <SignOutButton />
        </div>
      </div>
    </>
  );
}
