import { Ban, CalendarX } from "lucide-react";
import { Form } from "react-router";
import { StatusButton } from "~/components/ui/status-button";
import { useIsPending } from "~/components/ui/use-is-pending";
import type { MembershipDetails } from "~/features/admin/membership-details.server";
import { isLiveMembership } from "~/features/memberships/membership-status";
import { formatDateTimeFr } from "~/lib/format-fr";

/**
 * The admin's two ways to cancel: at the end of the paid period (or of the trial), or at once. A
 * plain POST form with one button each; the server checks again that the membership still runs.
 */
export function MembershipCancelForm({ membership }: { membership: MembershipDetails["membership"] }) {
  const atPeriodEnd = useIsPending({ fields: { cancel: "at-period-end" } });
  const now = useIsPending({ fields: { cancel: "now" } });
  if (!isLiveMembership(membership.status)) {
    return <p className="text-sm text-muted-foreground">Cet abonnement est terminé : aucune action possible.</p>;
  }
  // A past-due membership has no paid period left: cancelling it ends it at once.
  const canWaitForPeriodEnd = membership.status !== "past_due" && !membership.cancelAtPeriodEnd;
  const periodEnd = formatDateTimeFr(membership.currentPeriodEnd);
  return (
    <Form method="post" className="grid gap-4 text-sm">
      {membership.cancelAtPeriodEnd ? (
        <p>
          Résiliation programmée : l'abonnement prend fin le <strong>{periodEnd}</strong>, sans nouveau prélèvement.
        </p>
      ) : null}
      {canWaitForPeriodEnd ? (
        <div className="grid gap-2">
          <p className="text-muted-foreground">
            Le membre garde l'accès jusqu'au {periodEnd}, puis l'abonnement prend fin sans nouveau prélèvement.
          </p>
          <StatusButton
            name="cancel"
            value="at-period-end"
            pending={atPeriodEnd}
            pendingLabel="Résiliation..."
            icon={<CalendarX aria-hidden="true" />}
            variant="outline"
            className="justify-self-start"
          >
            Résilier à la fin de la période
          </StatusButton>
        </div>
      ) : null}
      <div className="grid gap-2">
        <p className="text-muted-foreground">
          L'accès prend fin maintenant ; une cotisation en attente n'est pas prélevée. Rien n'est remboursé
          automatiquement.
        </p>
        <StatusButton
          name="cancel"
          value="now"
          pending={now}
          pendingLabel="Résiliation..."
          icon={<Ban aria-hidden="true" />}
          variant="destructive"
          className="justify-self-start"
        >
          Résilier immédiatement
        </StatusButton>
      </div>
    </Form>
  );
}
