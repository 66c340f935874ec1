import type { Route } from "./+types/admin.emails.$mailId.pieces.$index";
import { database } from "~/db/client.server";
import { findOutboxMail } from "~/features/admin/emails/outbox-mails.server";
import { requireAdmin } from "~/features/auth/guards.server";

/** A file sent with an outbox mail, as its recipient got it (admins only). */
export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(request);
  const mail = await findOutboxMail(database().db, params.mailId);
  const file = /^\d{1,3}$/.test(params.index) ? mail?.attachments?.[Number(params.index)] : undefined;
  if (!file) throw new Response("Not Found", { status: 404 });
  return new Response(Buffer.from(file.content, "base64"), {
    headers: {
      "Content-Type": file.contentType,
      "Content-Disposition": `attachment; filename="${file.filename.replace(/["\\\r\n]/g, "_")}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
