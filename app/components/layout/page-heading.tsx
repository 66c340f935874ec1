import { cn } from "~/lib/class-names";

/** A page's h1 with an optional lead paragraph, in the site's standard width. */
export function PageHeading({ title, lead, className }: { title: string; lead?: string; className?: string }) {
  return (
    <div className={cn("mx-auto max-w-4xl px-4 pt-16 pb-8 text-center sm:px-6", className)}>
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
      {lead ? <p className="mt-4 text-lg text-muted-foreground">{lead}</p> : null}
    </div>
  );
}
