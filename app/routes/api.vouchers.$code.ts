import type { Route } from "./+types/api.vouchers.$code";
import { database } from "~/db/client.server";
import { requireAdminApi } from "~/features/auth/guards.server";
import { voucherCheckResponse } from "~/features/booking/voucher.server";
import { isMembershipCardCode, membershipCardCheckResponse } from "~/features/memberships/membership-card.server";

/**
 * What an airport desk scans: whether a voucher is genuine, for which order and date, or whether a
 * digital membership card is a member's. Admins only.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdminApi(request);
  const db = database().db;
  return isMembershipCardCode(params.code)
    ? membershipCardCheckResponse(db, params.code)
    : voucherCheckResponse(db, params.code);
}
