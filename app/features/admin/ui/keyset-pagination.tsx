import { ChevronLeft, ChevronRight } from "lucide-react";
import { Link, useLocation } from "react-router";
import { Button } from "~/components/ui/button";
import type { KeysetPage } from "~/features/admin/keyset.server";

/** The current URL with `?after=` or `?before=` set to `cursor`, keeping its other parameters (search, filters). */
function pageLink(search: string, direction: "after" | "before", cursor: string) {
  const params = new URLSearchParams(search);
  params.delete("after");
  params.delete("before");
  params.set(direction, cursor);
  return `?${params.toString()}`;
}

/** "Précédent" and "Suivant" links around a keyset page; nothing when the list fits on one page. */
export function KeysetPagination({
  page,
  label,
  labels = { previous: "Précédent", next: "Suivant" },
}: {
  page: Pick<KeysetPage<unknown>, "next" | "previous">;
  /** Names the navigation landmark. */
  label: string;
  /** The links' words, where the list's order can name them ("Plus récentes", "Plus anciennes"). */
  labels?: { previous: string; next: string };
}) {
  const { search } = useLocation();
  if (!page.previous && !page.next) return null;
  return (
    <nav aria-label={label} className="mt-4 flex justify-between gap-2">
      {page.previous ? (
        <Button asChild variant="outline" size="sm">
          <Link to={pageLink(search, "before", page.previous)} preventScrollReset>
            <ChevronLeft aria-hidden="true" />
            {labels.previous}
          </Link>
        </Button>
      ) : (
        <span />
      )}
      {page.next ? (
        <Button asChild variant="outline" size="sm">
          <Link to={pageLink(search, "after", page.next)} preventScrollReset>
            {labels.next}
            <ChevronRight aria-hidden="true" />
          </Link>
        </Button>
      ) : null}
    </nav>
  );
}
