import type * as React from "react";
import { cn } from "~/lib/class-names";

/** Label/value rows of an order, as a description list. */
export function SummaryList({ rows, className }: { rows: [string, React.ReactNode][]; className?: string }) {
  return (
    <dl className={cn("grid gap-3 text-sm", className)}>
      {rows.map(([label, value]) => (
        <div key={label} className="flex flex-wrap justify-between gap-x-4 gap-y-1">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className="ml-auto text-right font-medium break-all">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
