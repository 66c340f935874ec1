import { ArrowLeft } from "lucide-react";
import type * as React from "react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";

/** A link back up the admin pages, above a page's content. */
export function AdminBackLink({ to, children }: { to: string; children: React.ReactNode }) {
  return (
    <Button asChild variant="ghost" size="sm" className="justify-self-start">
      <Link to={to}>
        <ArrowLeft aria-hidden="true" />
        {children}
      </Link>
    </Button>
  );
}
