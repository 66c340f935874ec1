import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { REVENUE_FIGURES, type CurrencyRevenue } from "~/features/admin/revenue";
import { RevenueLines } from "~/features/admin/ui/revenue-lines";

/** Under the spec's revenue card: each currency's fast tracks, fees, refunds and net, never added across currencies. */
export function RevenueCard({ revenue }: { revenue: CurrencyRevenue[] | null }) {
  return (
    <Card role="region" aria-labelledby="revenue-heading">
      <CardHeader>
        <CardTitle>
          <h2 id="revenue-heading">Recettes par devise</h2>
        </CardTitle>
        <CardDescription>
          {REVENUE_FIGURES.map(({ label, note }) => `${label} : ${note}.`).join(" ")} Les devises ne sont jamais
          additionnées.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {revenue === null ? (
          <p className="text-sm text-muted-foreground">Les recettes n'ont pas pu être chargées.</p>
        ) : revenue.length ? (
          <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {revenue.map((figures) => (
              <section
                key={figures.currency}
                aria-labelledby={`revenue-heading-${figures.currency}`}
                className="grid gap-2"
              >
                <h3 id={`revenue-heading-${figures.currency}`} className="font-medium">
                  {figures.currency}
                </h3>
                <RevenueLines revenue={figures} />
              </section>
            ))}
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">Aucune recette pour le moment.</p>
        )}
      </CardContent>
    </Card>
  );
}
