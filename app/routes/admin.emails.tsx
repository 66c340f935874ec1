import type { Route } from "./+types/admin.emails";
import { SectionCard } from "~/components/layout/section-card";
import { emailSamples, previewHtml } from "~/features/admin/system/email-samples";
import { AdminPage } from "~/features/admin/ui/admin-page";
import { requireAdmin } from "~/features/auth/guards.server";
import { layoutMeta, pageMeta } from "~/platform/seo/page-meta";
import { siteOrigin } from "~/lib/site-origin.server";

export const meta: Route.MetaFunction = ({ matches }) => [...pageMeta({ title: "E-mails" }), ...layoutMeta(matches)];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const samples = await emailSamples(siteOrigin(request));
  return {
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

export default function EmailsPage({ loaderData }: Route.ComponentProps) {
  const { samples } = loaderData;
  return (
    <AdminPage
      title="E-mails"
      lead="Chaque e-mail envoyé par le site, rendu avec des données d'exemple : pour vérifier la marque et les textes sans rien envoyer."
    >
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
          <SectionCard title={sample.label} subtitle={sample.sentWhen} contentClassName="grid gap-4">
            <dl className="grid gap-1 text-sm sm:grid-cols-[max-content_minmax(0,1fr)] sm:gap-x-4">
              <dt className="font-medium">Objet</dt>
              <dd className="wrap-anywhere">{sample.subject}</dd>
              <dt className="font-medium">Pièces jointes</dt>
              <dd className="wrap-anywhere">
                {sample.attachments.length
                  ? sample.attachments
                      .map((file) => `${file.filename} (${file.contentType}${file.cid ? ", intégrée" : ""})`)
                      .join(", ")
                  : "Aucune"}
              </dd>
            </dl>
            <iframe
              title={`Aperçu : ${sample.label}`}
              // No sandbox attribute: the site's Content-Security-Policy, which a srcdoc frame inherits,
              // already keeps scripts out, and a sandbox would shut out the accessibility checks too.
              srcDoc={sample.preview}
              className="h-[720px] w-full max-w-[600px] rounded-md border bg-white"
            />
            <details>
              <summary className="cursor-pointer text-sm font-medium">Version texte</summary>
              <pre className="mt-2 overflow-x-auto text-xs whitespace-pre-wrap wrap-anywhere">{sample.text}</pre>
            </details>
          </SectionCard>
        </section>
      ))}
    </AdminPage>
  );
}
