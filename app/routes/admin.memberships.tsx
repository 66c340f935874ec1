import { data } from "react-router";
import type { Route } from "./+types/admin.memberships";
import { SectionCard } from "~/components/layout/section-card";
import { database } from "~/db/client.server";
import { pagePositionFromSearch } from "~/features/admin/keyset.server";
import { membershipFilterValues, parseMembershipFilters } from "~/features/admin/memberships/membership-filters";
import { membershipsListPage } from "~/features/admin/memberships/memberships-admin.server";
import { SearchTooBroadError } from "~/features/admin/search-timeout.server";
import { AdminPage } from "~/features/admin/ui/admin-page";
import { KeysetPagination } from "~/features/admin/ui/keyset-pagination";
import { MembershipFiltersForm } from "~/features/admin/memberships/ui/membership-filters-form";
import { MembershipsList } from "~/features/admin/memberships/ui/memberships-list";
import { requireAdmin } from "~/features/auth/guards.server";
import { layoutMeta, pageMeta } from "~/platform/seo/page-meta";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta({ title: "Abonnements" }),
  ...layoutMeta(matches),
];

const SEARCH_TOO_BROAD =
  "Recherche trop large pour ces filtres : précisez le nom ou l'e-mail, ou élargissez le statut ou la formule.";

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const values = membershipFilterValues(params);
  const parsed = parseMembershipFilters(params);
  if (!parsed.success) return data({ values, errors: parsed.errors, page: null }, { status: 400 });
  try {
    const page = await membershipsListPage(database().db, pagePositionFromSearch(params), parsed.filters);
    return { values, errors: {}, page };
  } catch (error) {
    if (!(error instanceof SearchTooBroadError)) throw error;
    return data({ values, errors: { q: SEARCH_TOO_BROAD }, page: null }, { status: 400 });
  }
}

export default function AdminMembershipsPage({ loaderData }: Route.ComponentProps) {
  const { values, errors, page } = loaderData;
  return (
    <AdminPage
      title="Abonnements"
      lead="Les abonnements et leurs membres, des plus récents aux plus anciens, 25 par page."
      wide
    >
      <SectionCard title="Rechercher et filtrer">
        <MembershipFiltersForm values={values} errors={errors} />
      </SectionCard>
      <SectionCard title="Résultats">
        {page ? (
          <>
            {page.rows.length ? (
              <MembershipsList memberships={page.rows} label="Abonnements" />
            ) : (
              <p className="text-sm text-muted-foreground">Aucun abonnement ne correspond à ces critères.</p>
            )}
            <KeysetPagination
              page={page}
              label="Pagination des abonnements"
              labels={{ previous: "Plus récents", next: "Plus anciens" }}
            />
          </>
        ) : (
          <p role="alert" className="text-sm text-destructive">
            Corrigez les filtres ci-dessus pour afficher les abonnements.
          </p>
        )}
      </SectionCard>
    </AdminPage>
  );
}
