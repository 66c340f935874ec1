import { Search } from "lucide-react";
import { Form, Link } from "react-router";
import type { Route } from "./+types/admin.emails";
import { SectionCard } from "~/components/layout/section-card";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { database } from "~/db/client.server";
import { listOutboxMails } from "~/features/admin/emails/outbox-mails.server";
import { MailPreview } from "~/features/admin/emails/ui/mail-preview";
import { OutboxList } from "~/features/admin/emails/ui/outbox-list";
import { emailSamples, previewHtml } from "~/features/admin/system/email-samples";
import { AdminPage } from "~/features/admin/ui/admin-page";
import { requireAdmin } from "~/features/auth/guards.server";
import { cn } from "~/lib/class-names";
import { siteOrigin } from "~/lib/site-origin.server";
import { layoutMeta, pageMeta } from "~/platform/seo/page-meta";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta({ title: "E-mails" }), ...layoutMeta(matches)];

/** The tab of the samples; the mails sent are the page's own. */
const SAMPLES = "modeles";
const MAX_QUERY_LENGTH = 200;

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const query = new URL(request.url).searchParams;
  if (query.get("vue") === SAMPLES) {
    const samples = await emailSamples(siteOrigin());
    return {
      view: "samples" as const,
      samples: samples.map((sample) => ({
        id: sample.id,
        label: sample.label,
        sentWhen: sample.sentWhen,
        subject: sample.subject,
        text: sample.text,
        attachments: sample.attachments.map(({ filename, contentType, cid }) => ({ filename, contentType, cid })),
        preview: previewHtml(sample),
      })),
    };
  }
  const q = (query.get("q") ?? "").trim().slice(0, MAX_QUERY_LENGTH);
  const asked = Number(query.get("page"));
  const page = Number.isSafeInteger(asked) && asked >= 1 && asked <= 10_000 ? asked : 1;
  return { view: "outbox" as const, q, page, ...(await listOutboxMails(database().db, { q, page })) };
}

export default function EmailsPage({ loaderData }: Route.ComponentProps) {
  return (
    <AdminPage
      title="E-mails"
      lead="Les e-mails que le site a envoyés ou va envoyer, tels que leurs destinataires les reçoivent ; et chaque modèle, rendu avec des données d'exemple."
    >
      <nav aria-label="Vues des e-mails" className="flex flex-wrap gap-2">
        <Tab to="/admin/emails" current={loaderData.view === "outbox"}>
          E-mails envoyés
        </Tab>
        <Tab to={`/admin/emails?vue=${SAMPLES}`} current={loaderData.view === "samples"}>
          Modèles
        </Tab>
      </nav>
      {loaderData.view === "samples" ? <Samples samples={loaderData.samples} /> : <Outbox {...loaderData} />}
    </AdminPage>
  );
}

function Tab({ to, current, children }: { to: string; current: boolean; children: string }) {
  return (
    <Button asChild variant={current ? "default" : "outline"}>
      <Link to={to} aria-current={current ? "page" : undefined}>
        {children}
      </Link>
    </Button>
  );
}

function Outbox({ q, page, mails, more }: Extract<Route.ComponentProps["loaderData"], { view: "outbox" }>) {
  const pageLink = (to: number) => `/admin/emails?${new URLSearchParams({ ...(q && { q }), page: String(to) })}`;
  return (
    <SectionCard
      title="E-mails envoyés"
      subtitle="Du plus récent au plus ancien. Ils restent dans la file d'envoi ; l'effacement des données d'une adresse efface les siens."
      contentClassName="grid gap-4"
    >
      <Form method="get" role="search" className="grid gap-2">
        <Label htmlFor="outbox-search">Destinataire (tout ou partie de l'adresse)</Label>
        <div className="flex flex-wrap gap-2">
          <Input
            key={q}
            id="outbox-search"
            name="q"
            type="search"
            defaultValue={q}
            maxLength={MAX_QUERY_LENGTH}
            className="min-w-0 flex-1 basis-60"
          />
          <Button type="submit">
            <Search aria-hidden="true" />
            Rechercher
          </Button>
          {q ? (
            <Button asChild variant="ghost">
              <Link to="/admin/emails">Effacer</Link>
            </Button>
          ) : null}
        </div>
      </Form>
      {mails.length ? (
        <OutboxList mails={mails} />
      ) : (
        <p className="text-sm text-muted-foreground">
          {q ? "Aucun e-mail pour cette adresse." : "Aucun e-mail : le site n'a encore rien envoyé."}
        </p>
      )}
      {page > 1 || more ? (
        <nav aria-label="Pages" className={cn("flex gap-2", page > 1 ? "justify-between" : "justify-end")}>
          {page > 1 ? (
            <Button asChild variant="outline">
              <Link to={pageLink(page - 1)}>Plus récents</Link>
            </Button>
          ) : null}
          {more ? (
            <Button asChild variant="outline">
              <Link to={pageLink(page + 1)}>Plus anciens</Link>
            </Button>
          ) : null}
        </nav>
      ) : null}
    </SectionCard>
  );
}

function Samples({
  samples,
}: {
  samples: Extract<Route.ComponentProps["loaderData"], { view: "samples" }>["samples"];
}) {
  return (
    <>
      <nav aria-label="Modèles d'e-mails">
        <ul className="grid gap-1 text-sm">
          {samples.map((sample) => (
            <li key={sample.id}>
              <a className="underline underline-offset-4" href={`#${sample.id}`}>
                {sample.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {samples.map((sample) => (
        <section key={sample.id} id={sample.id} aria-label={sample.label}>
          <SectionCard title={sample.label} subtitle={sample.sentWhen}>
            <MailPreview
              label={sample.label}
              subject={sample.subject}
              attachments={sample.attachments}
              html={sample.preview}
              text={sample.text}
            />
          </SectionCard>
        </section>
      ))}
    </>
  );
}
