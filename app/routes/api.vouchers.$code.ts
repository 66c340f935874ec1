import type { Route } from "./+types/api.vouchers.$code";
import { database } from "~/db/client.server";
import { requireAdminApi } from "~/features/auth/guards.server";
import { voucherCheckResponse } from "~/features/booking/voucher.server";

/** What an airport desk scans: whether a voucher is genuine, for which order and date. Admins only. */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdminApi(request);
  return voucherCheckResponse(database().db, params.code);
}
