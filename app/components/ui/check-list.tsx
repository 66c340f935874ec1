import { Check } from "lucide-react";
import type * as React from "react";
import { cn } from "~/lib/class-names";

/** A list of features or benefits: CheckListItems, each behind a tick in the brand colour. */
export function CheckList({ className, children }: { className?: string; children: React.ReactNode }) {
  return <ul className={className}>{children}</ul>;
}

export function CheckListItem({ children, iconClassName }: { children: React.ReactNode; iconClassName?: string }) {
  return (
    <li className="flex gap-3">
      <Check className={cn("mt-0.5 size-5 shrink-0 text-link", iconClassName)} aria-hidden="true" />
      {children}
    </li>
  );
}
