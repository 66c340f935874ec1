import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import type { Route } from "./+types/admin.data-requests";
import { SectionCard } from "~/components/layout/section-card";
import { database } from "~/db/client.server";
import { requireAdmin } from "~/features/auth/guards.server";
import { AdminPage } from "~/features/admin/ui/admin-page";
import { RESPONSE_DELAY_FR } from "~/features/privacy/data-request-deadline";
import { DataRequestForm } from "~/features/privacy/ui/data-request-form";
import { dataRequestSchema } from "~/features/privacy/data-request-schema";
import { DataRequestTable } from "~/features/privacy/ui/data-request-table";
import { listDataRequests, recordDataRequest } from "~/features/privacy/data-requests.server";
import { layoutMeta, pageMeta } from "~/platform/seo/page-meta";
import { redirectWithToast } from "~/lib/toast.server";
import { readFormData } from "~/lib/form-data.server";
import { companyDay } from "~/lib/company-time";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta({ title: "Demandes RGPD" }),
  ...layoutMeta(matches),
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return { requests: await listDataRequests(database().db), today: companyDay(new Date()) };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const submission = parseWithZod(await readFormData(request), { schema: dataRequestSchema(companyDay(new Date())) });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const id = await recordDataRequest(database().db, submission.value, admin);
  return redirectWithToast(`/admin/data-requests/${id}`, {
    type: "success",
    title: "Demande enregistrée",
    description: `À traiter ${RESPONSE_DELAY_FR}.`,
  });
}

export default function DataRequestsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { requests, today } = loaderData;
  return (
    <AdminPage
      title="Demandes RGPD"
      lead={`Accès, portabilité et effacement des données personnelles : chaque demande est à traiter ${RESPONSE_DELAY_FR} après sa réception.`}
    >
      <SectionCard title="Enregistrer une demande" subtitle="Reçue par e-mail, courrier ou téléphone.">
        <DataRequestForm lastResult={actionData?.result} today={today} />
      </SectionCard>
      <SectionCard title="Demandes">
        <DataRequestTable requests={requests} today={today} />
      </SectionCard>
    </AdminPage>
  );
}
