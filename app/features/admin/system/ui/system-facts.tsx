import { Link } from "react-router";
import { SectionCard } from "~/components/layout/section-card";
import { SummaryList } from "~/components/layout/summary-list";
import { StatusBadge, type StatusTone } from "~/components/ui/status-badge";
import type { JobName, JobRunOutcome } from "~/db/schema";
import { FAILED_EVENTS_PATH, FAILED_MAILS_PATH } from "~/features/admin/system/failed-work";
import type { ScheduledJob, SystemFacts } from "~/features/admin/system/system-facts.server";
import type { BillingCounts } from "~/features/memberships/billing-job.server";
import type { RetentionCounts } from "~/features/privacy/retention-job.server";
import type { BuildInfo } from "~/lib/build-info.server";
import { formatCountFr, formatDateTimeFr, formatDurationFr } from "~/lib/format-fr";
import type { JobRun } from "~/lib/job-runs.server";
import { CardsOrTable } from "../../ui/cards-or-table";

function databaseRows({ kind, pooler, poolSize }: SystemFacts["database"]): [string, string][] {
  if (kind === "pglite") return [["Base de données", "PGlite, embarquée dans le serveur"]];
  return [
    ["Base de données", "PostgreSQL"],
    ["Connexions", `jusqu'à ${poolSize} par processus`],
    ["Pooler", pooler === "transaction" ? "en mode transaction" : "aucun"],
  ];
}

function buildRows(build: BuildInfo | null): [string, string][] {
  if (!build) return [["Version", "inconnue : ce serveur ne tourne pas à partir de npm run build"]];
  return [
    ["Version", build.version],
    [
      "Commit",
      build.commit ? `${build.commit.slice(0, 12)}${build.modified ? " (modifié localement)" : ""}` : "inconnu",
    ],
    ["Compilée le", formatDateTimeFr(new Date(build.builtAt))],
  ];
}

/** How this server is set up: the payment gateway, the database, mail and the build. */
export function SystemSettings({ facts }: { facts: SystemFacts }) {
  return (
    <SectionCard title="Configuration">
      <SummaryList
        rows={[
          ["Paiements", facts.payments],
          ...databaseRows(facts.database),
          [
            "Envoi des e-mails",
            facts.mail.smtp ? "SMTP configuré" : "SMTP_URL non défini : les e-mails restent en file d'attente",
          ],
          ...buildRows(facts.build),
        ]}
      />
    </SectionCard>
  );
}

function FailedCount({ count, to, label }: { count: number; to: string; label: string }) {
  return (
    <span className="inline-flex flex-wrap items-center justify-end gap-x-3 gap-y-1">
      <StatusBadge tone={count > 0 ? "bad" : "good"}>{formatCountFr(count)}</StatusBadge>
      {count > 0 ? (
        <Link to={to} className="font-normal underline underline-offset-4">
          {label}
        </Link>
      ) : null}
    </span>
  );
}

/** The work waiting and the work that failed for good. */
export function QueueDepths({ facts }: { facts: SystemFacts }) {
  const { mail } = facts;
  return (
    <SectionCard title="Files d'attente">
      <SummaryList
        rows={[
          [
            "E-mails en attente d'envoi",
            mail.oldestWaitingSince
              ? `${formatCountFr(mail.waiting)} · le plus ancien depuis le ${formatDateTimeFr(mail.oldestWaitingSince)}`
              : formatCountFr(mail.waiting),
          ],
          [
            "E-mails en échec",
            <FailedCount key="mails" count={mail.failed} to={FAILED_MAILS_PATH} label="Voir et renvoyer" />,
          ],
          [
            "Événements Stripe en échec",
            <FailedCount key="events" count={facts.failedEvents} to={FAILED_EVENTS_PATH} label="Voir et relancer" />,
          ],
        ]}
      />
    </SectionCard>
  );
}

const JOB_TITLES: Record<JobName, { title: string; command: string }> = {
  retention: { title: "Rétention des données", command: "npm run retention" },
  billing: { title: "Facturation des abonnements", command: "npm run billing" },
};

const OUTCOMES: Record<JobRunOutcome, { label: string; tone: StatusTone }> = {
  done: { label: "Terminée", tone: "good" },
  skipped: { label: "Laissée à une autre instance", tone: "neutral" },
  failed: { label: "Échec", tone: "bad" },
  started: { label: "En cours", tone: "neutral" },
  interrupted: { label: "Interrompue", tone: "bad" },
};

const COUNT_LABELS: { retention: Record<keyof RetentionCounts, string>; billing: Record<keyof BillingCounts, string> } =
  {
    retention: {
      unpaidOrders: "commandes impayées supprimées",
      orderEvents: "entrées d'historique de commande",
      paymentAttempts: "tentatives de paiement refusées",
      customersDeleted: "clients supprimés",
      customersAnonymised: "clients anonymisés",
      contactMessages: "messages de contact",
      unsubscribeRequests: "demandes de désinscription",
      withdrawals: "rétractations",
      rateLimitCounters: "compteurs de limitation de débit",
    },
    billing: {
      trialReminders: "rappels de fin d'essai",
      invoicesCreated: "factures créées",
      charged: "cotisations encaissées",
      declined: "cotisations refusées",
      cancelledAtPeriodEnd: "abonnements résiliés en fin de période",
      endedUnpaid: "abonnements terminés impayés",
      gatewayErrors: "paiements restés sans réponse",
      planChangesFinished: "changements de formule terminés",
    },
  };

/** What a run did, in words: its error, or the counts that are not zero. */
function runDetail(job: JobName, run: JobRun) {
  if (run.error) return run.error;
  const labels: Record<string, string> = COUNT_LABELS[job];
  const done = Object.entries(run.counts ?? {})
    .filter(([, count]) => count > 0)
    .map(([key, count]) => `${labels[key] ?? key} : ${formatCountFr(count)}`);
  if (done.length) return done.join(" · ");
  if (run.outcome === "skipped") return "Une autre instance tenait le verrou de la tâche";
  if (run.outcome === "started") return "En cours d'exécution";
  if (run.outcome === "interrupted") return "Son processus s'est arrêté pendant l'exécution (arrêt forcé ou plantage)";
  return "Rien à faire";
}

/** How long the run took; a dash for one under way or interrupted, which never ended. */
const duration = (run: JobRun) =>
  run.finishedAt ? formatDurationFr(run.finishedAt.getTime() - run.startedAt.getTime()) : "—";

function OutcomeBadge({ outcome }: { outcome: JobRunOutcome }) {
  return <StatusBadge tone={OUTCOMES[outcome].tone}>{OUTCOMES[outcome].label}</StatusBadge>;
}

const RUN_COLUMNS = [{ label: "Début" }, { label: "Durée" }, { label: "Résultat" }, { label: "Détail" }] as const;

function JobRuns({ job }: { job: ScheduledJob }) {
  const { title, command } = JOB_TITLES[job.job];
  const { latestWork, runs } = job;
  return (
    <SectionCard
      title={title}
      subtitle={
        job.intervalMinutes > 0
          ? `${job.intervalMinutes === 1 ? "Toutes les minutes" : `Toutes les ${formatCountFr(job.intervalMinutes)} minutes`} sur ce serveur, ou à la main : ${command}`
          : `Pas planifiée sur ce serveur : ${command}`
      }
      contentClassName="grid gap-4"
    >
      <SummaryList
        rows={[
          [
            "Dernière exécution",
            latestWork ? (
              <span className="inline-flex flex-wrap items-center justify-end gap-2">
                {formatDateTimeFr(latestWork.startedAt)} · {duration(latestWork)}
                <OutcomeBadge outcome={latestWork.outcome} />
              </span>
            ) : (
              "Aucune"
            ),
          ],
          ...(latestWork ? [["Ce qu'elle a fait", runDetail(job.job, latestWork)] as [string, string]] : []),
        ]}
      />
      {runs.length ? (
        <CardsOrTable
          label={`Dernières exécutions : ${title}`}
          columns={RUN_COLUMNS}
          tableClassName="min-w-[40rem]"
          cards={runs.map((run) => (
            <li key={run.id} className="grid gap-1 rounded-lg border p-3 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="font-medium">
                  {formatDateTimeFr(run.startedAt)} · {duration(run)}
                </span>
                <OutcomeBadge outcome={run.outcome} />
              </div>
              <p className="text-muted-foreground wrap-anywhere">{runDetail(job.job, run)}</p>
            </li>
          ))}
          rows={runs.map((run) => (
            <tr key={run.id} className="border-b align-top last:border-0">
              <td className="py-2 pr-4 whitespace-nowrap">{formatDateTimeFr(run.startedAt)}</td>
              <td className="py-2 pr-4 whitespace-nowrap">{duration(run)}</td>
              <td className="py-2 pr-4">
                <OutcomeBadge outcome={run.outcome} />
              </td>
              <td className="py-2 wrap-anywhere text-muted-foreground">{runDetail(job.job, run)}</td>
            </tr>
          ))}
        />
      ) : null}
    </SectionCard>
  );
}

/** The scheduled jobs, each with its latest runs. */
export function ScheduledJobs({ jobs }: { jobs: ScheduledJob[] }) {
  return jobs.map((job) => <JobRuns key={job.job} job={job} />);
}
