import { data } from "react-router";
import { checkHealth } from "~/platform/health/health.server";

export async function loader() {
  const health = await checkHealth();
  return data(health, {
    status: health.status === "ok" ? 200 : 503,
    headers: { "Cache-Control": "no-store" },
  });
}
