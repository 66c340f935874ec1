import { data } from "react-router";
import type { Route } from "./+types/admin.messages";
import { SectionCard } from "~/components/layout/section-card";
import { FormAlert } from "~/components/ui/form-alert";
import { database } from "~/db/client.server";
import { KeysetPagination } from "~/features/admin/ui/keyset-pagination";
import { pagePositionFromSearch } from "~/features/admin/keyset.server";
import { MessageFilters } from "~/features/admin/messages/ui/message-filters";
import { ContactMessageList, UnsubscribeRequestList } from "~/features/admin/messages/ui/message-lists";
import {
  MESSAGE_KIND_LABELS,
  messageFilterFromParams,
  STATUS_CHANGED,
  STATUS_FILTER_LABELS,
  messageStatusChangeSchema,
} from "~/features/admin/messages/message-status";
import {
  changeMessageStatus,
  listContactMessages,
  listUnsubscribeRequests,
  newMessageCounts,
} from "~/features/admin/messages/messages-admin.server";
import { requireAdmin } from "~/features/auth/guards.server";
import { AdminPage } from "~/features/admin/ui/admin-page";
import { layoutMeta, pageMeta } from "~/platform/seo/page-meta";
import { redirectWithToast } from "~/lib/toast.server";
import { readFormData } from "~/lib/form-data.server";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta({ title: "Messages" }), ...layoutMeta(matches)];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const params = new URL(request.url).searchParams;
  const filter = messageFilterFromParams(params);
  const list = { status: filter.status, position: pagePositionFromSearch(params) };
  const db = database().db;
  return {
    filter,
    newCounts: await newMessageCounts(db),
    contactMessages: filter.kind === "contact" ? await listContactMessages(db, list) : null,
    unsubscribeRequests: filter.kind === "unsubscribe" ? await listUnsubscribeRequests(db, list) : null,
  };
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const change = messageStatusChangeSchema.safeParse(Object.fromEntries(await readFormData(request)));
  if (!change.success) return data({ error: change.error.issues[0]!.message }, { status: 400 });
  if (!(await changeMessageStatus(database().db, change.data))) {
    return data({ error: "Ce message n'existe pas ou a été supprimé : rien n'a été modifié." }, { status: 404 });
  }
  const { pathname, search } = new URL(request.url);
  return redirectWithToast(`${pathname}${search}`, {
    type: "success",
    title: STATUS_CHANGED[change.data.kind][change.data.status],
  });
}

export default function MessagesPage({ loaderData, actionData }: Route.ComponentProps) {
  const { filter, newCounts, contactMessages, unsubscribeRequests } = loaderData;
  const page = contactMessages ?? unsubscribeRequests;
  const empty =
    filter.status === "all" ? "Rien pour le moment." : `Aucun élément dans « ${STATUS_FILTER_LABELS[filter.status]} ».`;
  return (
    <AdminPage
      title="Messages"
      lead="Les messages envoyés par les formulaires de contact et les demandes de désinscription, du plus récent au plus ancien."
    >
      <FormAlert errors={actionData?.error ? [actionData.error] : undefined} />
      <SectionCard title={MESSAGE_KIND_LABELS[filter.kind]} contentClassName="grid gap-6">
        <MessageFilters filter={filter} newCounts={newCounts} />
        {page?.rows.length ? (
          <div>
            {contactMessages ? <ContactMessageList messages={contactMessages.rows} /> : null}
            {unsubscribeRequests ? <UnsubscribeRequestList requests={unsubscribeRequests.rows} /> : null}
            <KeysetPagination page={page} label="Pagination des messages" />
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">{empty}</p>
        )}
      </SectionCard>
    </AdminPage>
  );
}
