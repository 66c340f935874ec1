import { redirect } from "react-router";
import type { Route } from "./+types/sign-out";
import { signOut } from "~/features/auth/credentials.server";
import { redirectWithToast } from "~/lib/toast.server";

export async function action({ request }: Route.ActionArgs) {
  const outcome = await signOut(request);
  if (!outcome.ok) {
    return redirectWithToast("/", {
      type: "error",
      title: "Erreur de déconnexion",
      description: "Veuillez réessayer.",
    });
  }
  return redirectWithToast(
    "/",
    { type: "success", title: "Déconnexion réussie", description: "À bientôt !" },
    { headers: outcome.headers },
  );
}

export function loader() {
  return redirect("/");
}
