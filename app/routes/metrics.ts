import type { Route } from "./+types/metrics";
import { database } from "~/db/client.server";
import { membershipFigures } from "~/features/admin/dashboard/dashboard-totals.server";
import { outboxDepth } from "~/platform/mail/failed-mails.server";
import { metricsResponse } from "~/platform/observability/metrics-endpoint.server";
import { failedEventCount } from "~/features/provider-events/failed-events.server";

export function loader({ request }: Route.LoaderArgs) {
  return metricsResponse(request, async () => {
    const { db } = database();
    const [{ members }, mail, failedProviderEvents] = await Promise.all([
      membershipFigures(db),
      outboxDepth(db),
      failedEventCount(db),
    ]);
    return { members, mail, failedProviderEvents };
  });
}
