import { ArrowRight } from "lucide-react";
import { Link } from "react-router";
import { serviceCards } from "~/features/services/service-catalog";
import { serviceHref } from "~/features/services/service-tabs";

/** The six services of the membership as cards, each leading to its tab on /services. */
export function ServiceCards() {
  return (
    <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {serviceCards().map(({ title, description, icon: Icon, tab }) => (
        <li
          key={tab + title}
          className="group relative flex flex-col rounded-2xl border bg-card p-6 shadow-sm transition-shadow focus-within:shadow-md hover:shadow-md"
        >
          <span className="flex size-12 items-center justify-center rounded-xl bg-primary-light text-link">
            <Icon className="size-6" aria-hidden="true" />
          </span>
          <h3 className="mt-5 text-lg font-semibold">
            <Link
              to={serviceHref(tab)}
              className="after:absolute after:inset-0 after:rounded-2xl focus-visible:outline-none focus-visible:after:ring-[3px] focus-visible:after:ring-ring/50"
            >
              {title}
            </Link>
          </h3>
          <p className="mt-2 flex-1 text-sm text-muted-foreground">{description}</p>
          <span className="mt-4 inline-flex items-center gap-1 text-sm font-medium text-link" aria-hidden="true">
            Learn more
            <ArrowRight className="size-4 transition-transform group-hover:translate-x-0.5" />
          </span>
        </li>
      ))}
    </ul>
  );
}
