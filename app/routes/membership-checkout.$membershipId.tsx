import { CheckCircle2 } from "lucide-react";
import { data, Link } from "react-router";
import type { DocumentHandle } from "~/root";
import type { Route } from "./+types/membership-checkout.$membershipId";
import { Button } from "~/components/ui/button";
import { SectionCard } from "~/components/layout/section-card";
import { WITHDRAW_PATH } from "~/components/layout/nav-links";
import { database } from "~/db/client.server";
import { checkoutTrial } from "~/features/membership-checkout/membership-checkout.server";
import { MEMBERSHIP_TERMS } from "~/features/memberships/membership-terms";
import { NOINDEX, pageMeta } from "~/platform/seo/page-meta";
import { NotFoundMessage } from "~/components/layout/not-found-message";

export const handle = { hydrate: false } satisfies DocumentHandle;

export const meta: Route.MetaFunction = ({ data: page }) => [
  ...pageMeta({ title: page?.trial ? "Your free trial has started" : "Membership not found" }),
  NOINDEX,
];

export async function loader({ params }: Route.LoaderArgs) {
  const trial = await checkoutTrial(database().db, params.membershipId);
  return data({ trial }, { status: trial ? 200 : 404 });
}

const LINK = "font-medium text-link underline underline-offset-4";

export default function MembershipStartedPage({ loaderData: { trial } }: Route.ComponentProps) {
  if (!trial) return <NotFoundMessage />;
  return (
    <div className="pt-10 pb-16">
      <div className="mx-auto max-w-3xl px-4 pt-10 text-center sm:px-6">
        <CheckCircle2 className="mx-auto size-12 text-success" aria-hidden="true" />
        <h1 className="mt-4 text-3xl font-bold tracking-tight sm:text-4xl">Your free trial has started</h1>
        <p className="mt-4 text-lg text-muted-foreground">
          Nothing was charged today{trial.email ? `, and a confirmation e-mail is on its way to ${trial.email}` : ""}.
        </p>
      </div>
      <div className="mx-auto mt-10 grid max-w-3xl gap-6 px-4 sm:px-6">
        <SectionCard title="Your Membership">
          <p>
            Your {trial.planName} membership is free until {trial.freeUntil}, then {trial.fee} every{" "}
            {trial.periodMonths} months, charged to your {trial.card}. We e-mail you the day before the first charge. To
            stop it, cancel before then on the{" "}
            <Link to="/unsubscribe" className={LINK}>
              Unsubscribe
            </Link>{" "}
            page or in your account: you pay nothing.
          </p>
          <Button asChild className="mt-4 w-full sm:w-auto">
            <Link to="/account/sign-in">Go to your account</Link>
          </Button>
        </SectionCard>
        <p className="text-sm text-muted-foreground">
          Changed your mind? You can withdraw within {MEMBERSHIP_TERMS.changeOfMindDays} days of your confirmation
          e-mail, without giving a reason, with your membership number{" "}
          <span className="font-mono font-semibold text-foreground" data-testid="membership-number">
            {trial.number}
          </span>
          :{" "}
          <Link to={WITHDRAW_PATH} className={LINK}>
            withdraw from contract here
          </Link>
          .
        </p>
      </div>
    </div>
  );
}
