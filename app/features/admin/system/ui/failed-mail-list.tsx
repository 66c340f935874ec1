import type { FailedMailRow } from "~/features/admin/system/failed-mails-admin.server";
import { formatDateTimeFr } from "~/lib/format-fr";
import { FailedWorkCard, retriedOf } from "./failed-work-card";

export function FailedMailList({ mails }: { mails: FailedMailRow[] }) {
  return (
    <ul className="grid gap-3" aria-label="E-mails en échec">
      {mails.map((mail) => (
        <FailedWorkCard
          key={mail.id}
          id={mail.id}
          heading={`${mail.subject} · ${mail.to}`}
          details={[
            `Créé le ${formatDateTimeFr(mail.createdAt)}`,
            mail.failedAt ? `abandonné le ${formatDateTimeFr(mail.failedAt)}` : "abandonné",
            `après ${mail.attempts} tentative${mail.attempts > 1 ? "s" : ""}`,
          ]}
          error={mail.lastError}
          retried={retriedOf(mail)}
          retryLabel="Renvoyer"
        />
      ))}
    </ul>
  );
}
