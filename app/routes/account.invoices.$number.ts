import { data, redirect } from "react-router";
import type { Route } from "./+types/account.invoices.$number";
import { ACCOUNT_SIGN_IN_PATH } from "~/components/layout/nav-links";
import { database } from "~/db/client.server";
import { getOptionalUser } from "~/features/auth/guards.server";
import { invoiceDocuments } from "~/features/account/invoice-documents.server";
import { invoicePdf } from "~/features/account/invoice-pdf.server";

/** An invoice ("2026-000123") or credit note ("C2026-000007") number, as ADR 028 writes them. */
const DOCUMENT_NUMBER = /^C?\d{4}-\d{6,}$/;

/** The signed-in address's invoice or credit note as a PDF; any other number is a 404. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const user = await getOptionalUser(request);
  if (!user) throw redirect(ACCOUNT_SIGN_IN_PATH);
  const [document] = DOCUMENT_NUMBER.test(params.number)
    ? await invoiceDocuments(database().db, user.email, params.number)
    : [];
  if (!document) throw data("Not found", { status: 404, headers: { "Cache-Control": "private, no-store" } });
  const name = `${document.kind}-${document.number}.pdf`;
  return new Response(Buffer.from(await invoicePdf(document)), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
