/** A file sent with a mail; `href` downloads it, when the mail was really sent. */
export interface PreviewAttachment {
  filename: string;
  contentType: string;
  cid?: string;
  href?: string;
}

/**
 * A mail as its recipient sees it: subject, files, the HTML part in a frame (its `cid:` images put
 * inline by the caller) and the plain-text part.
 */
export function MailPreview({
  label,
  subject,
  attachments,
  html,
  text,
}: {
  label: string;
  subject: string;
  attachments: PreviewAttachment[];
  html: string | null;
  text: string;
}) {
  return (
    <div className="grid gap-4">
      <dl className="grid gap-1 text-sm sm:grid-cols-[max-content_minmax(0,1fr)] sm:gap-x-4">
        <dt className="font-medium">Objet</dt>
        <dd className="wrap-anywhere">{subject}</dd>
        <dt className="font-medium">Pièces jointes</dt>
        <dd className="wrap-anywhere">
          {attachments.length ? (
            <ul className="grid gap-1">
              {attachments.map((file) => {
                const name = `${file.filename} (${file.contentType}${file.cid ? ", intégrée" : ""})`;
                return (
                  <li key={file.filename}>
                    {file.href ? (
                      <a className="text-link underline underline-offset-4" href={file.href} download={file.filename}>
                        {name}
                      </a>
                    ) : (
                      name
                    )}
                  </li>
                );
              })}
            </ul>
          ) : (
            "Aucune"
          )}
        </dd>
      </dl>
      {html ? (
        <iframe
          title={`Aperçu : ${label}`}
          // No sandbox attribute: the site's Content-Security-Policy, which a srcdoc frame inherits,
          // already keeps scripts out, and a sandbox would shut out the accessibility checks too.
          srcDoc={html}
          className="h-[720px] w-full max-w-[600px] rounded-md border bg-white"
        />
      ) : null}
      <details open={!html}>
        <summary className="cursor-pointer text-sm font-medium">Version texte</summary>
        <pre className="mt-2 overflow-x-auto text-xs whitespace-pre-wrap wrap-anywhere">{text}</pre>
      </details>
    </div>
  );
}
