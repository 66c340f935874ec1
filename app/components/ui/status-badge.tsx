import { cva, type VariantProps } from "class-variance-authority";
import type * as React from "react";
import { cn } from "~/lib/class-names";

export const statusBadgeVariants = cva("inline-flex rounded-full px-2.5 py-0.5 text-xs font-medium whitespace-nowrap", {
  variants: {
    tone: {
      good: "bg-green-100 text-green-800",
      pending: "bg-yellow-100 text-yellow-900",
      info: "bg-blue-100 text-blue-800",
      bad: "bg-red-100 text-red-800",
      neutral: "bg-muted text-muted-foreground",
    },
  },
});

export type StatusTone = NonNullable<VariantProps<typeof statusBadgeVariants>["tone"]>;

/** A status in a coloured pill: its tone says at a glance whether all is well. */
export function StatusBadge({ tone, className, ...props }: React.ComponentProps<"span"> & { tone: StatusTone }) {
  return <span data-slot="status-badge" className={cn(statusBadgeVariants({ tone }), className)} {...props} />;
}
