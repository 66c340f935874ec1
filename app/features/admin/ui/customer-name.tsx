import { cn } from "~/lib/class-names";

/** The customer's name; an anonymised customer's stand-in name is muted, as it names no one. */
export function CustomerName({
  customer,
  className,
}: {
  customer: { name: string; anonymised: boolean };
  className?: string;
}) {
  return <span className={cn(customer.anonymised && "text-muted-foreground italic", className)}>{customer.name}</span>;
}
