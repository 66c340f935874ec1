import { Link } from "react-router";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { formatAmountFr, formatCountFr } from "~/lib/format-fr";
import type { MembershipFigures } from "~/features/admin/dashboard/dashboard-totals.server";
import { membershipStatusLabel } from "~/features/memberships/membership-status";
import { siteConfig } from "../../../../../site.config";

/** The dashboard's two membership cards: members per status and plan, and the fees charged every quarter per currency. */
export function MembershipCards({ figures }: { figures: MembershipFigures | null }) {
  const total = figures?.members.reduce((sum, { members }) => sum + members, 0);
  return (
    <section aria-label="Abonnements" className="grid gap-4 lg:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle>
            <h2>Abonnés par statut</h2>
          </CardTitle>
          <CardDescription>
            {total === undefined ? "Les abonnements n'ont pas pu être chargés." : `${formatCountFr(total)} au total`}
          </CardDescription>
        </CardHeader>
        {figures ? (
          <CardContent>
            <dl className="grid gap-2 text-sm">
              {figures.members.map(({ status, members, byPlan }) => (
                <div key={status} className="flex justify-between gap-4 border-b pb-2 last:border-0 last:pb-0">
                  <dt>
                    <Link
                      to={`/admin/memberships?status=${status}`}
                      className="text-primary underline-offset-4 hover:underline focus-visible:underline"
                    >
                      {membershipStatusLabel(status)}
                    </Link>
                  </dt>
                  <dd className="text-right">
                    <span className="font-semibold tabular-nums">{formatCountFr(members)}</span>
                    {members > 0 ? (
                      <span
                        className="block text-xs text-muted-foreground tabular-nums"
                        data-testid={`plans-${status}`}
                      >
                        {byPlan
                          .map(({ plan, members: count }) => `${siteConfig.pricing[plan].name} ${formatCountFr(count)}`)
                          .join(" · ")}
                      </span>
                    ) : null}
                  </dd>
                </div>
              ))}
            </dl>
          </CardContent>
        ) : null}
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>
            <h2>Revenu récurrent par trimestre</h2>
          </CardTitle>
          <CardDescription>
            Les cotisations qui seront prélevées à la fin de la période en cours : abonnements en essai ou actifs, sans
            résiliation demandée. Une ligne par devise, les devises ne sont jamais additionnées.
          </CardDescription>
        </CardHeader>
        {figures ? (
          <CardContent>
            {figures.recurring.length ? (
              <dl className="grid gap-2">
                {figures.recurring.map(({ currency, amount }) => (
                  <div
                    key={currency}
                    className="flex flex-wrap items-baseline justify-between gap-x-4 border-b pb-2 last:border-0 last:pb-0"
                  >
                    <dt className="text-sm text-muted-foreground">{currency}</dt>
                    <dd className="ml-auto text-xl font-bold whitespace-nowrap tabular-nums">
                      {formatAmountFr(amount, currency)}
                    </dd>
                  </div>
                ))}
              </dl>
            ) : (
              <p className="text-sm text-muted-foreground">Aucune cotisation à venir.</p>
            )}
          </CardContent>
        ) : null}
      </Card>
    </section>
  );
}
