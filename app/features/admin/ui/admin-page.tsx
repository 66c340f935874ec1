import { ArrowLeft } from "lucide-react";
import type * as React from "react";
import { Link, useLocation } from "react-router";
import { PageHeading } from "~/components/layout/page-heading";
import { Button } from "~/components/ui/button";
import { cn } from "~/lib/class-names";
import { backLinkOf } from "~/features/admin/back-link";

/**
 * A back-office page below the dashboard: its heading, then a link one level up above its content.
 * Without content it is the page of a record that does not exist.
 */
export function AdminPage({
  title,
  lead,
  wide = false,
  children,
}: {
  title: string;
  lead?: string;
  /** For wide tables and charts. */
  wide?: boolean;
  children?: React.ReactNode;
}) {
  const back = backLinkOf(useLocation().pathname);
  return (
    <>
      <PageHeading title={title} lead={lead} className="wrap-anywhere" />
      <div
        className={cn(
          "mx-auto grid grid-cols-[minmax(0,1fr)] gap-6 px-4 pb-16 sm:px-6",
          wide ? "max-w-7xl" : "max-w-5xl",
        )}
      >
        <Button asChild variant="ghost" size="sm" className="justify-self-start">
          <Link to={back.to}>
            <ArrowLeft aria-hidden="true" />
            {back.label}
          </Link>
        </Button>
        {children}
      </div>
    </>
  );
}
