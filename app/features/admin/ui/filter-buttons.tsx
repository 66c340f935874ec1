import { Search } from "lucide-react";
import type * as React from "react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";

/** A filter form's "Filtrer" button, and "Effacer les filtres" back to `list` when some are set; then `children`. */
export function FilterButtons({
  list,
  filtered,
  children,
}: {
  list: string;
  filtered: boolean;
  children?: React.ReactNode;
}) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button type="submit">
        <Search aria-hidden="true" />
        Filtrer
      </Button>
      {filtered ? (
        <Button asChild variant="ghost">
          <Link to={list}>Effacer les filtres</Link>
        </Button>
      ) : null}
      {children}
    </div>
  );
}
