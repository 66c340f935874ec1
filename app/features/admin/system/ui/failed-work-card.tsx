import type * as React from "react";
import { formatDateTimeFr } from "~/lib/format-fr";
import { RetryForm } from "./retry-form";

/**
 * One piece of failed work: what it is, when and how often it failed, the error in full, who last
 * retried it, and the button that retries it (when it can be retried here).
 */
export function FailedWorkCard({
  id,
  heading,
  details,
  error,
  retried,
  retryLabel,
}: {
  id: string;
  heading: React.ReactNode;
  details: string[];
  error: string | null;
  retried: { at: Date; by: string } | null;
  retryLabel: string | null;
}) {
  const headingId = `failed-${id}`;
  return (
    <li>
      <article aria-labelledby={headingId} className="grid gap-3 rounded-lg border p-4 text-sm">
        <div className="grid min-w-0 gap-1">
          <h3 id={headingId} className="font-semibold wrap-anywhere">
            {heading}
          </h3>
          <p className="text-muted-foreground wrap-anywhere">{details.join(" · ")}</p>
        </div>
        <div className="grid gap-1">
          <p className="font-medium">Erreur</p>
          <pre className="rounded-md bg-destructive/5 px-3 py-2 font-mono text-xs whitespace-pre-wrap text-destructive wrap-anywhere">
            {error ?? "Aucune erreur enregistrée"}
          </pre>
        </div>
        {retried ? (
          <p className="text-muted-foreground wrap-anywhere">
            Déjà relancé par {retried.by} le {formatDateTimeFr(retried.at)}
          </p>
        ) : null}
        {retryLabel ? <RetryForm id={id} label={retryLabel} describedBy={headingId} /> : null}
      </article>
    </li>
  );
}

/** The "retried by … on …" line of a row that keeps both. */
export function retriedOf(row: { retriedAt: Date | null; retriedBy: string | null }) {
  return row.retriedAt && row.retriedBy ? { at: row.retriedAt, by: row.retriedBy } : null;
}
