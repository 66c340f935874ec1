import type { Route } from "./+types/api.regenerate-wordings";
import { regenerateWordings } from "~/features/ai/regenerate-wordings.server";

/**
 * POST {currentContent, brandInfo: {companyName, tone}} -> {success, rephrased, error, provider}
 * (spec §7), for tools; the generator page calls the same function through its own action.
 */
export async function action({ request }: Route.ActionArgs) {
  // LEAD: replace the next two lines with `await requireAdminApi(request);` once the accounts branch is merged.
  const adminGuardWired = false;
  if (!adminGuardWired) return Response.json({ success: false, error: "Authentication required" }, { status: 401 });

  const body: unknown = await request.json().catch(() => undefined);
  const { status, answer } = await regenerateWordings(body);
  return Response.json(answer, { status });
}

export function loader() {
  return Response.json({ success: false, error: "Use POST" }, { status: 405, headers: { Allow: "POST" } });
}
