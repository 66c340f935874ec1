import { useRef } from "react";
import { useFetcher, useLocation, useRouteLoaderData } from "react-router";
import { ChevronDown } from "lucide-react";
import { CURRENCIES, DEFAULT_CURRENCY, currencyByCode } from "~/lib/currency";
import { cn } from "~/lib/class-names";
import type { loader as rootLoader } from "~/root";

/** The visitor's currency as the root loader read it from the cookie. */
export function useCurrency() {
  const data = useRouteLoaderData<typeof rootLoader>("root");
  return currencyByCode(data?.currency ?? DEFAULT_CURRENCY);
}

/**
 * A disclosure of submit buttons rather than a scripted menu, so that choosing a currency also
 * works with JavaScript off; with JavaScript the form posts through a fetcher without a reload.
 */
export function CurrencyMenu({
  className,
  align = "end",
  side = "below",
}: {
  className?: string;
  align?: "start" | "end";
  side?: "below" | "above";
}) {
  const current = useCurrency();
  const fetcher = useFetcher();
  const location = useLocation();
  const details = useRef<HTMLDetailsElement>(null);
  const pending = fetcher.formData?.get("currency");
  const shown = typeof pending === "string" ? currencyByCode(pending as typeof current.code) : current;

  return (
    <details ref={details} className={cn("relative", className)}>
      <summary
        className="flex h-10 cursor-pointer list-none items-center gap-1 rounded-md border border-input px-3 text-sm font-medium hover:bg-muted focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none [&::-webkit-details-marker]:hidden"
        aria-label={`Currency: ${shown.label}`}
      >
        <span data-testid="currency-symbol">{shown.symbol}</span>
        <span>{shown.code}</span>
        <ChevronDown className="size-4" aria-hidden="true" />
      </summary>
      <fetcher.Form
        method="post"
        action="/currency"
        onSubmit={() => details.current?.removeAttribute("open")}
        className={cn(
          "absolute z-50 w-64 rounded-md border bg-popover p-1 text-popover-foreground shadow-lg",
          align === "end" ? "right-0" : "left-0",
          side === "below" ? "top-full mt-1" : "bottom-full mb-1",
        )}
      >
        {/* data-current-url: scripts that change the URL on a page that is not hydrated keep it current. */}
        <input
          type="hidden"
          name="redirectTo"
          value={location.pathname + location.search + location.hash}
          data-current-url=""
        />
        {CURRENCIES.map((currency) => (
          <button
            key={currency.code}
            type="submit"
            name="currency"
            value={currency.code}
            aria-pressed={currency.code === shown.code}
            className="flex w-full items-center gap-3 rounded-sm px-3 py-2 text-left text-sm hover:bg-muted focus-visible:bg-muted focus-visible:outline-none aria-pressed:font-semibold"
          >
            <span className="w-4 text-center">{currency.symbol}</span>
            <span>{currency.label}</span>
          </button>
        ))}
      </fetcher.Form>
    </details>
  );
}
