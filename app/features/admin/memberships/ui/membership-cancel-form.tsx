import { Ban, CalendarX } from "lucide-react";
import { Form } from "react-router";
import { StatusButton } from "~/components/ui/status-button";
import { useIsPending } from "~/components/ui/use-is-pending";
import type { MembershipDetails } from "~/features/admin/memberships/membership-details.server";
import { isLiveMembership } from "~/features/memberships/membership-status";
import { formatDateTimeFr } from "~/lib/format-fr";

/**
 * The admin's two ways to cancel: at the end of the paid period (or of the trial), or at once. A
 * plain POST form with one button each; the server checks again that the membership still runs.
 */
export function MembershipCancelForm({ membership }: { membership: MembershipDetails["membership"] }) {
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
        <CancelOption
          value="at-period-end"
          explanation={`Le membre garde l'accès jusqu'au ${periodEnd}, puis l'abonnement prend fin sans nouveau prélèvement.`}
          icon={<CalendarX aria-hidden="true" />}
          variant="outline"
        >
          Résilier à la fin de la période
        </CancelOption>
      ) : null}
      <CancelOption
        value="now"
        explanation="L'accès prend fin maintenant ; une cotisation en attente n'est pas prélevée. Rien n'est remboursé automatiquement."
        icon={<Ban aria-hidden="true" />}
        variant="destructive"
      >
        Résilier immédiatement
      </CancelOption>
    </Form>
  );
}

/** One way to cancel: what it does, and its button (busy while that very button's request runs). */
function CancelOption({
  value,
  explanation,
  icon,
  variant,
  children,
}: {
  value: "at-period-end" | "now";
  explanation: string;
  icon: React.ReactNode;
  variant: "outline" | "destructive";
  children: string;
}) {
  const pending = useIsPending({ fields: { cancel: value } });
  return (
    <div className="grid gap-2">
      <p className="text-muted-foreground">{explanation}</p>
      <StatusButton
        name="cancel"
        value={value}
        pending={pending}
        pendingLabel="Résiliation..."
        icon={icon}
        variant={variant}
        className="justify-self-start"
      >
        {children}
      </StatusButton>
    </div>
  );
}
