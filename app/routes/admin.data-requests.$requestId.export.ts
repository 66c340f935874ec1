import type { Route } from "./+types/admin.data-requests.$requestId.export";
import { database } from "~/db/client.server";
import { requireAdmin } from "~/features/auth/guards.server";
import { exportDataRequest, findDataRequest } from "~/features/privacy/data-requests.server";
import { personalDataFile } from "~/features/privacy/personal-data.server";

/** The JSON file answering an access or portability request; each download is recorded in the request's history. */
export async function action({ request, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const db = database().db;
  const found = await findDataRequest(db, params.requestId);
  if (!found) return new Response("Not Found", { status: 404 });
  const personalData = await exportDataRequest(db, found, admin);
  return new Response(personalDataFile(personalData, new Date()), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="donnees-personnelles-${found.id.slice(0, 8)}.json"`,
      "Cache-Control": "no-store",
    },
  });
}
