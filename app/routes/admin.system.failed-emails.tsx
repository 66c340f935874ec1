import { data } from "react-router";
import type { Route } from "./+types/admin.system.failed-emails";
import { SectionCard } from "~/components/layout/section-card";
import { FormAlert } from "~/components/ui/form-alert";
import { database } from "~/db/client.server";
import { listFailedMails } from "~/features/admin/system/failed-mails-admin.server";
import { mailRetrySchema } from "~/features/admin/system/failed-work";
import { pagePositionFromSearch } from "~/features/admin/keyset.server";
import { AdminPage } from "~/features/admin/ui/admin-page";
import { FailedMailList } from "~/features/admin/system/ui/failed-mail-list";
import { KeysetPagination } from "~/features/admin/ui/keyset-pagination";
import { requireAdmin } from "~/features/auth/guards.server";
import { retryFailedMail } from "~/platform/mail/failed-mails.server";
import { nudgeOutbox } from "~/platform/mail/outbox-worker.server";
import { layoutMeta, pageMeta } from "~/platform/seo/page-meta";
import { readFormData } from "~/lib/form-data.server";
import { redirectWithToast } from "~/lib/toast.server";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta({ title: "E-mails en échec" }),
  ...layoutMeta(matches),
];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const position = pagePositionFromSearch(new URL(request.url).searchParams);
  return { mails: await listFailedMails(database().db, { position }) };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const retry = mailRetrySchema.safeParse(Object.fromEntries(await readFormData(request)));
  if (!retry.success) return data({ error: retry.error.issues[0]!.message }, { status: 400 });
  const outcome = await retryFailedMail(database().db, {
    id: retry.data.id,
    actor: { userId: admin.id, label: admin.email },
  });
  const { pathname, search } = new URL(request.url);
  const page = `${pathname}${search}`;
  switch (outcome.kind) {
    case "queued":
      nudgeOutbox();
      return redirectWithToast(page, {
        type: "success",
        title: "E-mail remis en file d'attente",
        description: `Il part vers ${outcome.to} dans quelques instants.`,
      });
    case "not-failed":
      // A second click, or another admin was first: the mail is already on its way or sent.
      return redirectWithToast(page, {
        type: "info",
        title: "Rien à renvoyer",
        description:
          outcome.status === "sent"
            ? `Cet e-mail à ${outcome.to} a déjà été envoyé : rien n'a été changé.`
            : `Cet e-mail à ${outcome.to} est déjà en file d'attente : rien n'a été changé.`,
      });
    case "not-found":
      return data({ error: "Cet e-mail n'existe pas ou a été supprimé : rien n'a été renvoyé." }, { status: 404 });
  }
}

export default function FailedEmailsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { mails } = loaderData;
  return (
    <AdminPage
      title="E-mails en échec"
      lead="Les e-mails que le site n'a pas pu envoyer malgré ses tentatives, du plus récent au plus ancien. Renvoyer un e-mail le remet en file d'attente : il repart aussitôt, avec de nouvelles tentatives."
    >
      <FormAlert errors={actionData?.error ? [actionData.error] : undefined} />
      <SectionCard title="À renvoyer">
        {mails.rows.length ? (
          <div>
            <FailedMailList mails={mails.rows} />
            <KeysetPagination page={mails} label="Pagination des e-mails en échec" />
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">Aucun e-mail en échec.</p>
        )}
      </SectionCard>
    </AdminPage>
  );
}
