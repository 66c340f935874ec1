import { data } from "react-router";
import type { Route } from "./+types/admin.withdrawals";
import { SectionCard } from "~/components/layout/section-card";
import { database } from "~/db/client.server";
import { pagePositionFromSearch } from "~/features/admin/keyset.server";
import { AdminPage } from "~/features/admin/ui/admin-page";
import { KeysetPagination } from "~/features/admin/ui/keyset-pagination";
import { WithdrawalFiltersForm } from "~/features/admin/withdrawals/ui/withdrawal-filters-form";
import { parseWithdrawalFilters, withdrawalFilterValues } from "~/features/admin/withdrawals/withdrawal-filters";
import { listWithdrawals, recentOverflow } from "~/features/admin/withdrawals/withdrawals-list.server";
import { requireAdmin } from "~/features/auth/guards.server";
import { layoutMeta, pageMeta } from "~/platform/seo/page-meta";
import { UNMATCHED_STATEMENTS_PER_HOUR } from "~/features/withdrawal/withdrawal.server";
import { WithdrawalList } from "~/features/withdrawal/ui/withdrawal-list";
import { formatCountFr, formatDateTimeFr } from "~/lib/format-fr";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta({ title: "Rétractations" }),
  ...layoutMeta(matches),
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const values = withdrawalFilterValues(params);
  const db = database().db;
  const overflow = await recentOverflow(db, new Date());
  const parsed = parseWithdrawalFilters(params);
  const cap = UNMATCHED_STATEMENTS_PER_HOUR;
  if (!parsed.success) return data({ values, errors: parsed.errors, page: null, overflow, cap }, { status: 400 });
  const page = await listWithdrawals(db, pagePositionFromSearch(params), parsed.filters);
  return { values, errors: {}, page, overflow, cap };
}

export default function AdminWithdrawalsPage({ loaderData }: Route.ComponentProps) {
  const { values, errors, page, overflow, cap } = loaderData;
  return (
    <AdminPage
      title="Rétractations"
      lead="Les déclarations faites via la fonction de rétractation du site, des plus récentes aux plus anciennes, 25 par page. Celles « sans correspondance » sont à examiner : elles n'ont rien modifié et le client n'a pas reçu d'e-mail."
    >
      {overflow.length > 0 ? (
        <SectionCard title="Plafond des déclarations sans correspondance atteint">
          <p className="text-sm">
            {`Au-delà de ${formatCountFr(cap)} déclarations sans correspondance par heure, les suivantes ne sont pas enregistrées (un envoi en masse). Cette semaine :`}
          </p>
          <ul className="mt-2 grid gap-1 text-sm">
            {overflow.map((hour) => (
              <li key={hour.hour.toISOString()}>
                {`Heure commençant le ${formatDateTimeFr(hour.hour)} : ${formatCountFr(hour.count)} non enregistrée${hour.count > 1 ? "s" : ""}`}
              </li>
            ))}
          </ul>
        </SectionCard>
      ) : null}
      <SectionCard title="Rechercher et filtrer">
        <WithdrawalFiltersForm values={values} errors={errors} />
      </SectionCard>
      <SectionCard title="Résultats">
        {page ? (
          <>
            <WithdrawalList withdrawals={page.rows} links />
            <KeysetPagination
              page={page}
              label="Pagination des rétractations"
              labels={{ previous: "Plus récentes", next: "Plus anciennes" }}
            />
          </>
        ) : (
          <p role="alert" className="text-sm text-destructive">
            Corrigez les filtres ci-dessus pour afficher les rétractations.
          </p>
        )}
      </SectionCard>
    </AdminPage>
  );
}
