import type { Route } from "./+types/admin.withdrawals";
import { SectionCard } from "~/components/layout/section-card";
import { database } from "~/db/client.server";
import { AdminPage } from "~/features/admin/ui/admin-page";
import { requireAdmin } from "~/features/auth/guards.server";
import { layoutMeta, pageMeta } from "~/features/seo/page-meta";
import { WithdrawalList } from "~/features/withdrawal/ui/withdrawal-list";
import { latestWithdrawals, WITHDRAWAL_LIST_LIMIT } from "~/features/withdrawal/withdrawals-admin.server";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta({ title: "Rétractations" }),
  ...layoutMeta(matches),
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return { withdrawals: await latestWithdrawals(database().db), limit: WITHDRAWAL_LIST_LIMIT };
}

export default function AdminWithdrawalsPage({ loaderData }: Route.ComponentProps) {
  return (
    <AdminPage
      title="Rétractations"
      lead="Les déclarations faites via la fonction de rétractation du site. Celles « sans correspondance » sont à examiner : elles n'ont rien modifié et le client n'a pas reçu d'e-mail."
    >
      <SectionCard
        title="Les plus récentes"
        subtitle={`Les ${loaderData.limit} dernières, de la plus récente à la plus ancienne.`}
      >
        <WithdrawalList withdrawals={loaderData.withdrawals} links />
      </SectionCard>
    </AdminPage>
  );
}
