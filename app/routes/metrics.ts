import type { Route } from "./+types/metrics";
import { metricsResponse } from "~/features/observability/metrics-endpoint.server";

export function loader({ request }: Route.LoaderArgs) {
  return metricsResponse(request);
}
