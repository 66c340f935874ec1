import { ArrowRight } from "lucide-react";
import { Link } from "react-router";
import type * as React from "react";
import { Button } from "~/components/ui/button";

/** A closing call to action: a coloured band with a heading, a sentence and one button. */
export function CtaSection({
  id,
  title,
  text,
  action,
  children,
}: {
  id: string;
  title: string;
  text: string;
  action: { label: string; to: string };
  /** Anything to show before the button, such as a form field. */
  children?: React.ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="px-4 py-12 sm:px-6 sm:py-16">
      <div className="mx-auto max-w-5xl rounded-3xl bg-primary px-6 py-12 text-center text-primary-foreground shadow-lg sm:px-12 sm:py-16">
        <h2 id={id} className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">
          {title}
        </h2>
        <p className="mx-auto mt-4 max-w-2xl text-lg text-pretty">{text}</p>
        {children}
        <Button asChild size="lg" variant="accent" className="mt-8">
          <Link to={action.to}>
            {action.label}
            <ArrowRight aria-hidden="true" />
          </Link>
        </Button>
      </div>
    </section>
  );
}
