import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { Route } from "./+types/admin.data-requests.$requestId";
import { SectionCard } from "~/components/layout/section-card";
import { SummaryList } from "~/components/layout/summary-list";
import { database } from "~/db/client.server";
import { requireAdmin } from "~/features/auth/guards.server";
import { AdminPage } from "~/features/admin/ui/admin-page";
import { EraseForm, ExportForm } from "~/features/privacy/ui/data-request-actions";
import { DataRequestHistory } from "~/features/privacy/ui/data-request-history";
import { DATA_REQUEST_KIND_LABELS, eraseSchema } from "~/features/privacy/data-request-schema";
import { DataRequestDeadline, DataRequestStatusBadge } from "~/features/privacy/ui/data-request-status";
import { dataRequestHistory, eraseDataRequest, findDataRequest } from "~/features/privacy/data-requests.server";
import { siteOrigin } from "~/lib/site-origin.server";
import { findPersonalData } from "~/features/privacy/personal-data.server";
import { PersonalDataView } from "~/features/privacy/ui/personal-data-view";
import { layoutMeta, pageMeta } from "~/platform/seo/page-meta";
import { redirectWithToast } from "~/lib/toast.server";
import { readFormData } from "~/lib/form-data.server";
import { companyDay } from "~/lib/company-time";
import { formatDayFr } from "~/lib/format-fr";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta({ title: "Demande RGPD" }),
  ...layoutMeta(matches),
];

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const db = database().db;
  const found = await findDataRequest(db, params.requestId);
  if (!found) return data({ found: null }, { status: 404 });
  return {
    found: {
      request: found,
      personalData: await findPersonalData(db, found.email),
      history: await dataRequestHistory(db, found.id),
      today: companyDay(new Date()),
    },
  };
}

export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const db = database().db;
  const found = await findDataRequest(db, params.requestId);
  if (!found) throw new Response("Not Found", { status: 404 });
  const submission = parseWithZod(await readFormData(request), { schema: eraseSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const outcome = await eraseDataRequest(db, found, admin, siteOrigin());
  if (!outcome.erased) {
    const formErrors = ["Vous ne pouvez pas effacer votre propre compte depuis cette page."];
    return data({ result: submission.reply({ formErrors }) }, { status: 409 });
  }
  return redirectWithToast(`/admin/data-requests/${found.id}`, {
    type: "success",
    title: "Données effacées",
    description: "Les commandes payées, les factures et les remboursements restent, anonymisés, pour la comptabilité.",
  });
}

export default function DataRequestPage({ loaderData, actionData }: Route.ComponentProps) {
  const { found } = loaderData;
  if (!found) {
    return <AdminPage title="Demande introuvable" lead="Cette demande n'existe pas ou a été supprimée." />;
  }
  const { request, personalData, history, today } = found;
  return (
    <AdminPage title={`Demande : ${DATA_REQUEST_KIND_LABELS[request.kind]}`} lead={request.email}>
      {/* On a phone: follow-up, data, actions, history. Wider: the data on the left, the rest beside it. */}
      <div className="grid grid-cols-[minmax(0,1fr)] gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <SectionCard title="Suivi" className="lg:col-start-2 lg:row-start-1 lg:self-start">
          <SummaryList
            rows={[
              ["Reçue le", formatDayFr(request.receivedOn)],
              ["Échéance", <DataRequestDeadline request={request} today={today} />],
              ["Statut", <DataRequestStatusBadge request={request} today={today} />],
            ]}
          />
        </SectionCard>
        <SectionCard
          title="Données trouvées"
          subtitle="Tout ce que le site conserve sur cette adresse : c'est ce que contient l'export."
          className="lg:col-start-1 lg:row-span-4 lg:row-start-1 lg:self-start"
        >
          <PersonalDataView data={personalData} />
        </SectionCard>
        <SectionCard
          title="Actions"
          className="lg:col-start-2 lg:row-start-2 lg:self-start"
          contentClassName="grid gap-6"
        >
          <ExportForm action={`/admin/data-requests/${request.id}/export`} />
          <div className="grid gap-3 border-t pt-6">
            <p className="text-sm text-muted-foreground">
              L'effacement résilie aussitôt une adhésion en cours, puis supprime le compte, les messages, les demandes
              de désinscription, les e-mails et les commandes non payées. Les commandes payées, les adhésions, leurs
              factures et les remboursements restent pour la comptabilité, sans nom ni coordonnées.
            </p>
            {/* Keyed on the history, so that the confirmation starts unticked after each action. */}
            <EraseForm key={history.length} email={request.email} lastResult={actionData?.result} />
          </div>
        </SectionCard>
        <SectionCard title="Historique" className="lg:col-start-2 lg:row-start-3 lg:self-start">
          <DataRequestHistory events={history} />
        </SectionCard>
      </div>
    </AdminPage>
  );
}
