import { data, redirect } from "react-router";
import type { Route } from "./+types/currency";
import { isCurrencyCode } from "~/lib/currency";
import { currencyCookie } from "~/lib/currency.server";
import { safeRedirectPath } from "~/lib/safe-redirect";
import { readFormData } from "~/lib/form-data.server";

export async function action({ request }: Route.ActionArgs) {
  const form = await readFormData(request);
  const currency = form.get("currency");
  if (!isCurrencyCode(currency)) {
    return data({ error: "Choose one of USD, EUR or GBP." }, { status: 400 });
  }
  return redirect(safeRedirectPath(form.get("redirectTo")), {
    headers: { "Set-Cookie": currencyCookie(currency) },
  });
}

export function loader() {
  return redirect("/");
}
