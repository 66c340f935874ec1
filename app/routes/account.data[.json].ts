import { redirect } from "react-router";
import type { Route } from "./+types/account.data[.json]";
import { ACCOUNT_SIGN_IN_PATH } from "~/components/layout/nav-links";
import { database } from "~/db/client.server";
import { getOptionalUser } from "~/features/auth/guards.server";
import { findPersonalData, personalDataFile } from "~/features/privacy/personal-data.server";

/** Everything held about the signed-in address, as the back office's export of an access request gives it. */
export async function loader({ request }: Route.LoaderArgs) {
  const user = await getOptionalUser(request);
  if (!user) throw redirect(ACCOUNT_SIGN_IN_PATH);
  const personalData = await findPersonalData(database().db, user.email);
  return new Response(personalDataFile(personalData, new Date()), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": 'attachment; filename="my-data.json"',
      "Cache-Control": "private, no-store",
    },
  });
}
