import { redirect } from "react-router";
import type { Route } from "./+types/sign-out";
import { signOut } from "~/features/auth/credentials.server";
import { readFormData } from "~/lib/form-data.server";
import { redirectWithToast } from "~/lib/toast.server";

export async function action({ request }: Route.ActionArgs) {
  // The member area is English, the sign-in at /auth French: each gets its own words.
  const fromAccount = await readFormData(request.clone()).then(
    (formData) => formData.get("from") === "account",
    () => false,
  );
  const outcome = await signOut(request);
  if (fromAccount) {
    return outcome.ok
      ? redirectWithToast("/", { type: "success", title: "You are signed out" }, { headers: outcome.headers })
      : redirectWithToast("/account", { type: "error", title: "We could not sign you out. Please try again." });
  }
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
