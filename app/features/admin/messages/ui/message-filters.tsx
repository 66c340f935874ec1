import { Link } from "react-router";
import { cn } from "~/lib/class-names";
import {
  MESSAGE_KIND_LABELS,
  MESSAGE_KINDS,
  STATUS_FILTER_LABELS,
  STATUS_FILTERS,
  type MessageFilter,
  type MessageKind,
} from "~/features/admin/messages/message-status";

const filterLink = ({ kind, status }: MessageFilter) => `/admin/messages?kind=${kind}&status=${status}`;

/** Links rather than script-driven tabs: each list has its own URL, and they work without JavaScript. */
function FilterLinks({ label, links }: { label: string; links: { to: string; text: string; current: boolean }[] }) {
  return (
    <nav aria-label={label}>
      <ul className="flex flex-wrap gap-2">
        {links.map(({ to, text, current }) => (
          <li key={to}>
            <Link
              to={to}
              aria-current={current ? "page" : undefined}
              className={cn(
                "inline-flex min-h-10 items-center rounded-md border px-3 text-sm font-medium",
                current ? "border-primary bg-primary text-primary-foreground" : "bg-background hover:bg-muted",
              )}
            >
              {text}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The kind of message (with how many are new) and the status to show. */
export function MessageFilters({
  filter,
  newCounts,
}: {
  filter: MessageFilter;
  newCounts: Record<MessageKind, number>;
}) {
  return (
    <div className="grid gap-3">
      <FilterLinks
        label="Type de message"
        links={MESSAGE_KINDS.map((kind) => ({
          to: filterLink({ kind, status: filter.status }),
          text: `${MESSAGE_KIND_LABELS[kind]} (${newCounts[kind]} ${newCounts[kind] > 1 ? "nouveaux" : "nouveau"})`,
          current: kind === filter.kind,
        }))}
      />
      <FilterLinks
        label="Statut"
        links={STATUS_FILTERS.map((status) => ({
          to: filterLink({ kind: filter.kind, status }),
          text: STATUS_FILTER_LABELS[status],
          current: status === filter.status,
        }))}
      />
    </div>
  );
}
