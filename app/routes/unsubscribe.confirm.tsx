import { data, Form, Link } from "react-router";
import type { Route } from "./+types/unsubscribe.confirm";
import { PageHeading } from "~/components/layout/page-heading";
import { Button } from "~/components/ui/button";
import { StatusButton } from "~/components/ui/status-button";
import { useIsPending } from "~/components/ui/use-is-pending";
import { database } from "~/db/client.server";
import { nudgeOutbox } from "~/platform/mail/outbox-worker.server";
import type { AddressCancellation } from "~/features/memberships/cancellation.server";
import {
  confirmCancellationLink,
  inspectCancellationLink,
  type CancellationLink,
} from "~/features/memberships/cancellation-request.server";
import { CANCELLATION_LINK_HOURS } from "~/features/memberships/cancellation-link";
import { NOINDEX, pageMeta } from "~/platform/seo/page-meta";
import { readFormData } from "~/lib/form-data.server";
import { COMPANY_TIME_ZONE } from "~/lib/company-time";
import { formatAmount } from "~/lib/currency";
import { siteOrigin } from "~/lib/site-origin.server";

export const meta: Route.MetaFunction = () => [
  ...pageMeta({ title: "Confirm Unsubscribe" }),
  NOINDEX,
  // The address holds a single-use token: no other site may see it in a Referer header. (Not
  // "no-referrer": that also blanks the Origin of the confirming POST, which React Router refuses.)
  { name: "referrer", content: "same-origin" },
];

/** Opening the link only shows what it would do: confirming takes a POST. */
export async function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token");
  const link = await inspectCancellationLink(database().db, token);
  return { link, token: link.state === "ready" ? token : null };
}

const CONFIRMATION_STATUS: Record<CancellationLink["state"], number> = {
  ready: 200,
  confirmed: 200,
  used: 200,
  expired: 410,
  unknown: 400,
};

export async function action({ request }: Route.ActionArgs) {
  const token = (await readFormData(request)).get("token");
  const link = await confirmCancellationLink(database().db, typeof token === "string" ? token : null, {
    origin: siteOrigin(),
  });
  if (link.state === "confirmed") nudgeOutbox();
  return data({ link }, { status: CONFIRMATION_STATUS[link.state] });
}

const dateFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" });
/** "27 November 2026", the day in Amsterdam, as the cancellation e-mail gives it. */
const memberDayFormat = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: COMPANY_TIME_ZONE });

function ConfirmForm({ email, token }: { email: string; token: string }) {
  const action = "/unsubscribe/confirm";
  const pending = useIsPending({ formAction: action, state: "submitting" });
  return (
    <>
      <PageHeading title="Confirm unsubscribe" lead={`You asked to unsubscribe ${email}.`} />
      <Form
        method="post"
        action={action}
        className="mx-auto flex max-w-md flex-col items-center gap-4 px-4 pb-16 text-center"
      >
        <input type="hidden" name="token" value={token} />
        <p className="text-muted-foreground">Press the button to confirm. Until you do, nothing changes.</p>
        <StatusButton pending={pending} pendingLabel="Confirming..." size="lg">
          Confirm unsubscribe
        </StatusButton>
      </Form>
    </>
  );
}

function Outcome({ title, children, action }: { title: string; children: React.ReactNode; action: React.ReactNode }) {
  return (
    <>
      <PageHeading title={title} />
      <div className="mx-auto flex max-w-xl flex-col items-center gap-8 px-4 pb-16 text-center">
        <div className="text-lg text-muted-foreground">{children}</div>
        {action}
      </div>
    </>
  );
}

const requestAgain = (
  <Button asChild variant="outline">
    <Link to="/unsubscribe">Request a new link</Link>
  </Button>
);

const returnHome = (
  <Button asChild>
    <Link to="/">Return to Home</Link>
  </Button>
);

/** Until when the cancelled membership runs: the page goes to the holder of the address's link only. */
function MembershipEnd({ membership }: { membership: AddressCancellation | null }) {
  if (!membership) return <p>This address has no running membership: there is nothing to cancel or charge.</p>;
  const day = memberDayFormat.format(membership.accessUntil);
  return membership.atOnce ? (
    <p>
      Your membership ended today, <strong className="text-foreground">{day}</strong>, because a fee was unpaid: that
      fee will not be charged, and nothing more is. An e-mail confirms it.
    </p>
  ) : (
    <p>
      Your membership will not renew. It ends on <strong className="text-foreground">{day}</strong>, and you keep its
      benefits until then; nothing more is charged.
      {membership.refunded ? (
        <>
          {" "}
          That is before the end of the period you paid for, so we refund the rest of its fee,{" "}
          <strong className="text-foreground">
            {formatAmount(membership.refunded.amount, membership.refunded.currency)}
          </strong>
          , to the card you paid with.
        </>
      ) : null}{" "}
      An e-mail confirms the date.
    </p>
  );
}

function LinkOutcome({ link, token }: { link: CancellationLink; token: string | null }) {
  switch (link.state) {
    case "ready":
      return token ? <ConfirmForm email={link.email} token={token} /> : null;
    case "confirmed":
      return (
        <Outcome title="You are unsubscribed" action={returnHome}>
          <div role="status" className="space-y-4">
            <p>
              We have confirmed the unsubscribe request for <strong className="text-foreground">{link.email}</strong>.
            </p>
            <MembershipEnd membership={link.membership} />
          </div>
        </Outcome>
      );
    case "used":
      return (
        <Outcome title="This link has already been used" action={returnHome}>
          <p>
            Each unsubscribe link works only once. The request for{" "}
            <strong className="text-foreground">{link.email}</strong> was confirmed on{" "}
            {dateFormat.format(link.confirmedAt)}; there is nothing more to do.
          </p>
        </Outcome>
      );
    case "expired":
      return (
        <Outcome title="This link has expired" action={requestAgain}>
          <p>
            Unsubscribe links work for {CANCELLATION_LINK_HOURS} hours. Ask for a new one and use it within that time.
          </p>
        </Outcome>
      );
    case "unknown":
      return (
        <Outcome title="This link is not valid" action={requestAgain}>
          <p>Check that you opened the whole link from the e-mail, or ask for a new one.</p>
        </Outcome>
      );
  }
}

export default function UnsubscribeConfirmPage({ loaderData, actionData }: Route.ComponentProps) {
  return <LinkOutcome link={actionData?.link ?? loaderData.link} token={loaderData.token} />;
}
