import type { Route } from "./+types/admin.system";
import { database } from "~/db/client.server";
import { env } from "~/env.server";
import { systemFacts } from "~/features/admin/system/system-facts.server";
import { AdminPage } from "~/features/admin/ui/admin-page";
import { QueueDepths, ScheduledJobs, SystemSettings } from "~/features/admin/system/ui/system-facts";
import { requireAdmin } from "~/features/auth/guards.server";
import { layoutMeta, pageMeta } from "~/platform/seo/page-meta";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta({ title: "Système" }), ...layoutMeta(matches)];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return { facts: await systemFacts(database(), env()) };
}

export default function SystemPage({ loaderData }: Route.ComponentProps) {
  const { facts } = loaderData;
  return (
    <AdminPage
      title="Système"
      lead="Comment ce serveur est configuré, le travail en attente ou en échec, et les dernières exécutions des tâches planifiées."
    >
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-2">
        <SystemSettings facts={facts} />
        <QueueDepths facts={facts} />
      </div>
      <ScheduledJobs jobs={facts.jobs} />
    </AdminPage>
  );
}
