import { useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "~/root";
import type { AccountSummary } from "~/features/auth/account";

/** The visitor as the root loader saw them; for what the header shows, never for access. */
export function useAccount(): AccountSummary {
  const data = useRouteLoaderData<typeof rootLoader>("root");
  return { user: data?.user ?? null, isAdmin: data?.isAdmin ?? false };
}
