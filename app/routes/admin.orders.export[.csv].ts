import type { Route } from "./+types/admin.orders.export[.csv]";
import { database } from "~/db/client.server";
import { parseOrderFilters } from "~/features/admin/orders/order-filters";
import { ordersCsvFileName, ordersCsvStream } from "~/features/admin/orders/orders-export.server";
import { requireAdmin } from "~/features/auth/guards.server";

/** The orders of /admin/orders, with the same filters, as a CSV file streamed as it is read. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const parsed = parseOrderFilters(new URL(request.url).searchParams);
  if (!parsed.success) {
    return new Response(`Export impossible : ${Object.values(parsed.errors).join(" ")}`, {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  return new Response(ordersCsvStream(database().db, parsed.filters), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${ordersCsvFileName(new Date())}"`,
      "Cache-Control": "no-store",
    },
  });
}
