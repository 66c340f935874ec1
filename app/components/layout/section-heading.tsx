import type * as React from "react";
import { cn } from "~/lib/class-names";

/**
 * The small label above a heading. It sits on a white pill because `text-link` is only
 * guaranteed legible on white (docs/decisions/003) and sections may be tinted.
 */
export function Eyebrow({ children }: { children: React.ReactNode }) {
  return (
    <p className="inline-block rounded-full bg-background px-3 py-1 text-xs font-semibold tracking-wide text-link uppercase shadow-xs">
      {children}
    </p>
  );
}

/** A section's h2 with a small label above it and an optional lead paragraph. */
export function SectionHeading({
  id,
  eyebrow,
  title,
  lead,
  align = "center",
  className,
}: {
  /** For the section's aria-labelledby. */
  id: string;
  eyebrow?: string;
  title: string;
  lead?: string;
  align?: "center" | "start";
  className?: string;
}) {
  return (
    <div className={cn("max-w-3xl", align === "center" && "mx-auto text-center", className)}>
      {eyebrow ? <Eyebrow>{eyebrow}</Eyebrow> : null}
      <h2 id={id} className="mt-3 text-3xl font-bold tracking-tight text-balance sm:text-4xl">
        {title}
      </h2>
      {lead ? <p className="mt-4 text-lg text-pretty text-muted-foreground">{lead}</p> : null}
    </div>
  );
}

/** A page section under its SectionHeading, whose h2 labels it. */
export function HeadedSection({
  headingId,
  eyebrow,
  title,
  lead,
  children,
  ...props
}: { headingId: string; eyebrow?: string; title: string; lead?: string } & Omit<
  React.ComponentProps<"section">,
  "title"
>) {
  return (
    <section aria-labelledby={headingId} {...props}>
      <SectionHeading id={headingId} eyebrow={eyebrow} title={title} lead={lead} />
      {children}
    </section>
  );
}
