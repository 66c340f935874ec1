import { data } from "react-router";
import type { Route } from "./+types/admin.system.failed-events";
import { SectionCard } from "~/components/layout/section-card";
import { FormAlert } from "~/components/ui/form-alert";
import { database } from "~/db/client.server";
import { eventRetrySchema } from "~/features/admin/system/failed-work";
import { AdminPage } from "~/features/admin/ui/admin-page";
import { FailedEventList } from "~/features/admin/system/ui/failed-event-list";
import { requireAdmin } from "~/features/auth/guards.server";
import { livePayments } from "~/features/payments/live-gateway.server";
import { listFailedEvents } from "~/features/provider-events/failed-events.server";
import { retryFailedEvent } from "~/features/provider-events/stripe-webhook.server";
import { layoutMeta, pageMeta } from "~/platform/seo/page-meta";
import { formatCountFr } from "~/lib/format-fr";
import { readFormData } from "~/lib/form-data.server";
import { siteOrigin } from "~/lib/site-origin.server";
import { redirectWithToast } from "~/lib/toast.server";
import { logger } from "~/logger.server";

export const meta: Route.MetaFunction = ({ matches }) => [
  ...pageMeta({ title: "Événements Stripe en échec" }),
  ...layoutMeta(matches),
];

/** A toast's description has room for this much of an error. */
const ERROR_SHOWN = 300;

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return { events: await listFailedEvents(database().db), stripe: livePayments().stripe !== undefined };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const retry = eventRetrySchema.safeParse(Object.fromEntries(await readFormData(request)));
  if (!retry.success) return data({ error: retry.error.issues[0]!.message }, { status: 400 });
  const page = new URL(request.url).pathname;
  const { gateway, stripe } = livePayments();
  if (!stripe || gateway.kind !== "hosted-card") {
    return redirectWithToast(page, {
      type: "error",
      title: "Relance impossible",
      description: "Stripe n'est pas configuré sur ce serveur : l'événement n'a pas été relancé.",
    });
  }
  const outcome = await retryFailedEvent(
    { db: database().db, client: stripe.client, gateway, origin: siteOrigin(), logger },
    { id: retry.data.id, actor: { userId: admin.id, label: admin.email } },
  );
  switch (outcome.kind) {
    case "processed":
      return redirectWithToast(page, {
        type: "success",
        title: "Événement traité",
        description: `L'événement ${outcome.type} a été traité.`,
      });
    case "failed":
      return redirectWithToast(page, {
        type: "error",
        title: "L'événement a de nouveau échoué",
        description: outcome.error.slice(0, ERROR_SHOWN),
      });
    case "already-processed":
      // Stripe's own delivery, another admin or a second click was first.
      return redirectWithToast(page, {
        type: "info",
        title: "Déjà traité",
        description: "Cet événement a déjà été traité : rien n'a été refait.",
      });
    case "not-found":
      return data({ error: "Cet événement n'existe pas : rien n'a été relancé." }, { status: 404 });
  }
}

export default function FailedEventsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { events, stripe } = loaderData;
  return (
    <AdminPage
      title="Événements Stripe en échec"
      lead="Les événements envoyés par Stripe que le site n'a pas pu traiter. Stripe les renvoie pendant quelques jours ; les relancer ici relit l'objet chez Stripe et agit selon ce qu'il dit maintenant, une seule fois."
    >
      <FormAlert errors={actionData?.error ? [actionData.error] : undefined} />
      {!stripe && events.rows.length ? (
        <p role="status" className="rounded-md border px-4 py-3 text-sm">
          Stripe n'est pas configuré sur ce serveur : ces événements ne peuvent pas être relancés.
        </p>
      ) : null}
      <SectionCard
        title="À relancer"
        subtitle={
          events.total > events.rows.length
            ? `Les ${formatCountFr(events.rows.length)} plus récents sur ${formatCountFr(events.total)}.`
            : undefined
        }
      >
        {events.rows.length ? (
          <FailedEventList events={events.rows} retryable={stripe} />
        ) : (
          <p className="text-sm text-muted-foreground">Aucun événement en échec.</p>
        )}
      </SectionCard>
    </AdminPage>
  );
}
