import type { Route } from "./+types/api.regenerate-wordings";
import { regenerateWordings } from "~/features/site-config/ai/regenerate-wordings.server";
import { requireAdminApi } from "~/features/auth/guards.server";

/**
 * POST {currentContent, brandInfo: {companyName, tone}} -> {success, rephrased, error, provider}
 * for tools; the generator page calls the same function through its own action.
 */
export async function action({ request }: Route.ActionArgs) {
  await requireAdminApi(request);

  const body: unknown = await request.json().catch(() => undefined);
  const { status, answer } = await regenerateWordings(body);
  return Response.json(answer, { status });
}

export function loader() {
  return Response.json({ success: false, error: "Use POST" }, { status: 405, headers: { Allow: "POST" } });
}
