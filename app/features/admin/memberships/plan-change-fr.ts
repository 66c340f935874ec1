import type { MembershipPlan } from "~/db/schema";
import { membershipPlanName } from "~/features/memberships/membership-status";
import { otherPlan, type PlanChangeKind, type PlanChangeRefusal } from "~/features/memberships/plan-change";
import { planFee } from "~/features/memberships/trial-offer";
import { z } from "~/lib/zod";
import { formatAmountFr, formatDateTimeFr } from "~/lib/format-fr";
import type { MembershipDetails } from "./membership-details.server";

/** What the back office's plan change offers (ADR 030), in French: the move asked for, or the other plan and what moving does now. */
export type AdminPlanChange =
  /** The move already asked for, and the button that calls it off. */
  | { scheduled: string; keep: string }
  | { to: MembershipPlan; explanation: string; button: string; expectedAmount: number | null };

/** Why the plan cannot change, in the back office's words. */
export const PLAN_CHANGE_REFUSALS_FR: Record<PlanChangeRefusal, string> = {
  same: "C'est déjà la formule de ce membre.",
  notRunning: "Seul un abonnement en cours peut changer de formule.",
  pastDue: "Une cotisation est impayée : elle doit être réglée avant tout changement de formule.",
  ending: "Cet abonnement se termine à la fin de la période payée : sa formule ne peut plus changer.",
  providerBilled:
    "Cet abonnement est facturé par Stripe, qui n'est pas le moyen de paiement configuré : sa formule ne peut pas changer ici.",
  unpriced: "Stripe n'a pas chiffré la différence : réessayez dans une minute.",
  changing: "Un autre changement de formule est en cours de paiement : réessayez dans une minute.",
};

/** The form's field by which the plan change is told apart from the page's other forms. */
export const PLAN_CHANGE_FIELD = "planChange";
/** The field of the button that calls off a move already asked for. */
export const KEEP_PLAN_FIELD = "keepPlan";

export const adminPlanChangeSchema = z.object({
  [PLAN_CHANGE_FIELD]: z.enum(["medium", "premium"], { error: "Formule inconnue." }),
  expectedAmount: z.coerce.number().int().nonnegative().max(1_000_000).optional(),
  key: z.uuid({ error: "Formulaire expiré : rechargez la page." }),
});

/** `change`: what moving to the other plan does now (`quotePlanChange`). */
export function adminPlanChange(
  membership: MembershipDetails["membership"],
  change: PlanChangeKind,
): AdminPlanChange | null {
  if (membership.scheduledPlan) {
    return {
      scheduled: `Passage en ${membershipPlanName(membership.scheduledPlan)} prévu le ${formatDateTimeFr(membership.currentPeriodEnd)}, à la fin de la période payée.`,
      keep: `Garder ${membershipPlanName(membership.plan)}`,
    };
  }
  const to = otherPlan(membership.plan);
  const name = membershipPlanName(to);
  const fee = `${formatAmountFr(planFee(to), membership.currency)} par trimestre`;
  const periodEnd = formatDateTimeFr(membership.currentPeriodEnd);
  switch (change.kind) {
    case "refused":
      return null;
    case "trial":
      return {
        to,
        explanation: `Pendant l'essai, rien n'est prélevé : la première cotisation, le ${periodEnd}, sera de ${fee}.`,
        button: `Passer en ${name}`,
        expectedAmount: null,
      };
    case "upgrade":
      return {
        to,
        explanation: `Immédiat. La différence jusqu'à la fin de la période (${periodEnd}) est prélevée sur la carte du membre, puis ${fee}.`,
        button:
          change.amount > 0
            ? `Passer en ${name} – prélever ${formatAmountFr(change.amount, membership.currency)}`
            : `Passer en ${name}`,
        expectedAmount: change.amount,
      };
    case "downgrade":
      return {
        to,
        explanation: `Le membre garde sa formule jusqu'au ${periodEnd}, puis ${fee}.`,
        button: `Passer en ${name} à la fin de la période`,
        expectedAmount: null,
      };
  }
}
