import type { Route } from "./+types/api.auth.$";
import { getAuth } from "~/features/auth/auth.server";

// better-auth's own JSON API (/api/auth/get-session, /api/auth/sign-in/email, ...).

export function loader({ request }: Route.LoaderArgs) {
  return getAuth().handler(request);
}

export function action({ request }: Route.ActionArgs) {
  return getAuth().handler(request);
}
