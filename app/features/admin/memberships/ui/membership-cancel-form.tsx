import { Ban, CalendarX } from "lucide-react";
import { Form, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { ConfirmStep } from "~/components/ui/confirm-step";
import { StatusButton } from "~/components/ui/status-button";
import { useIsPending } from "~/components/ui/use-is-pending";
import type { MembershipDetails } from "~/features/admin/memberships/membership-details.server";
import { CONFIRM_CANCEL_NOW } from "~/features/admin/memberships/membership-actions";
import { isLiveMembership } from "~/features/memberships/membership-status";
import { formatDateTimeFr } from "~/lib/format-fr";

/**
 * The admin's two ways to cancel: at the end of the paid period (or of the trial), or at once, which
 * cannot be undone and so asks first (`CONFIRM_CANCEL_NOW`, which the server asks for too). Plain
 * POST forms; the server checks again that the membership still runs.
 */
export function MembershipCancelForm({
  membership,
  confirmNow,
}: {
  membership: MembershipDetails["membership"];
  /** The "are you sure?" step of the cancellation at once is open. */
  confirmNow: boolean;
}) {
  if (!isLiveMembership(membership.status)) {
    return <p className="text-sm text-muted-foreground">Cet abonnement est terminé : aucune action possible.</p>;
  }
  // A past-due membership has no paid period left: cancelling it ends it at once.
  const canWaitForPeriodEnd = membership.status !== "past_due" && !membership.cancelAtPeriodEnd;
  const periodEnd = formatDateTimeFr(membership.currentPeriodEnd);
  const page = `/admin/memberships/${membership.id}`;
  return (
    <div className="grid gap-4 text-sm">
      {membership.cancelAtPeriodEnd ? (
        <p>
          Résiliation programmée : l'abonnement prend fin le <strong>{periodEnd}</strong>, sans nouveau prélèvement.
        </p>
      ) : null}
      {canWaitForPeriodEnd ? <CancelAtPeriodEnd periodEnd={periodEnd} /> : null}
      {confirmNow ? (
        <ConfirmStep
          action={page}
          question="Résilier immédiatement cet abonnement ?"
          consequence={`${NOW_CONSEQUENCE} C'est définitif.`}
          confirmLabel="Oui, résilier immédiatement"
          backTo={page}
          backLabel="Ne pas résilier"
        >
          <input type="hidden" name="cancel" value="now" />
        </ConfirmStep>
      ) : (
        <div className="grid gap-2">
          <p className="text-muted-foreground">{NOW_CONSEQUENCE}</p>
          <Button asChild variant="destructive" className="justify-self-start">
            <Link to={`${page}${CONFIRM_CANCEL_NOW}`}>
              <Ban aria-hidden="true" />
              Résilier immédiatement
            </Link>
          </Button>
        </div>
      )}
    </div>
  );
}

const NOW_CONSEQUENCE =
  "L'accès prend fin maintenant ; une cotisation en attente n'est pas prélevée. Rien n'est remboursé automatiquement.";

/** The cancellation at the period's end: what it does, and its button (busy while its request runs). */
function CancelAtPeriodEnd({ periodEnd }: { periodEnd: string }) {
  const pending = useIsPending({ fields: { cancel: "at-period-end" } });
  return (
    <Form method="post" className="grid gap-2">
      <p className="text-muted-foreground">{`Le membre garde l'accès jusqu'au ${periodEnd}, puis l'abonnement prend fin sans nouveau prélèvement.`}</p>
      <StatusButton
        name="cancel"
        value="at-period-end"
        pending={pending}
        pendingLabel="Résiliation..."
        icon={<CalendarX aria-hidden="true" />}
        variant="outline"
        className="justify-self-start"
      >
        Résilier à la fin de la période
      </StatusButton>
    </Form>
  );
}
