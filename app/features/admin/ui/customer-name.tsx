import { cn } from "~/lib/class-names";

/** The client's name; an anonymised customer's stand-in name is muted, as it names no one. */
export function ClientName({
  client,
  className,
}: {
  client: { name: string; anonymised: boolean };
  className?: string;
}) {
  return <span className={cn(client.anonymised && "text-muted-foreground italic", className)}>{client.name}</span>;
}
