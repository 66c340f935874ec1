import type { Route } from "./+types/admin.data-requests.$requestId.export";
import { database } from "~/db/client.server";
import { requireAdmin } from "~/features/auth/guards.server";
import { exportDataRequest, findDataRequest } from "~/features/privacy/data-requests.server";
import { siteConfig } from "../../site.config";

/** The JSON file answering an access or portability request; each download is recorded in the request's history. */
export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const db = database().db;
  const found = await findDataRequest(db, params.requestId);
  if (!found) return new Response("Not Found", { status: 404 });
  const personalData = await exportDataRequest(db, found, admin);
  const file = { controller: siteConfig.company.legalName, exportedAt: new Date(), ...personalData };
  return new Response(JSON.stringify(file, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="donnees-personnelles-${found.id.slice(0, 8)}.json"`,
      "Cache-Control": "no-store",
    },
  });
}
