import { Check } from "lucide-react";
import { cn } from "~/lib/class-names";

const STEPS = ["Booking details", "Payment", "Confirmation"] as const;

/** The 3-step progress indicator; `current` is the 1-based step the person is on. */
export function CheckoutSteps({ current }: { current: 1 | 2 | 3 }) {
  return (
    <nav aria-label="Booking progress" className="mx-auto max-w-3xl px-4 sm:px-6">
      <ol className="grid grid-cols-3 gap-2">
        {STEPS.map((label, index) => {
          const step = index + 1;
          const done = step < current;
          const active = step === current;
          return (
            <li
              key={label}
              aria-current={active ? "step" : undefined}
              className="flex flex-col items-center gap-2 text-center text-xs sm:text-sm"
            >
              <span
                className={cn(
                  "flex size-9 items-center justify-center rounded-full border-2 font-semibold",
                  done && "border-primary bg-primary text-primary-foreground",
                  active && "border-primary text-link",
                  !done && !active && "border-border text-muted-foreground",
                )}
              >
                {done ? <Check className="size-4" aria-hidden="true" /> : step}
                {done ? <span className="sr-only">Step {step}, completed:</span> : null}
              </span>
              <span className={cn(active ? "font-semibold" : "text-muted-foreground")}>{label}</span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
