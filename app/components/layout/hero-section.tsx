import type * as React from "react";
import { Eyebrow } from "./section-heading";

/** A page's opening: the h1, a lead, the calls to action and an illustration beside them. */
export function HeroSection({
  eyebrow,
  title,
  lead,
  children,
  image,
}: {
  eyebrow?: string;
  title: string;
  lead: React.ReactNode;
  /** Calls to action and anything else under the lead. */
  children?: React.ReactNode;
  image: React.ReactNode;
}) {
  return (
    <section className="overflow-hidden bg-linear-to-b from-primary-light/70 to-background">
      <div className="mx-auto grid max-w-7xl items-center gap-10 px-4 pt-12 pb-12 sm:px-6 lg:grid-cols-2 lg:gap-16 lg:pt-16 lg:pb-16">
        <div>
          {eyebrow ? <Eyebrow>{eyebrow}</Eyebrow> : null}
          <h1 className="mt-4 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl lg:text-6xl">{title}</h1>
          <div className="mt-6 max-w-xl text-lg text-pretty text-muted-foreground">{lead}</div>
          {children ? <div className="mt-8">{children}</div> : null}
        </div>
        <div className="mx-auto w-full max-w-md lg:max-w-none">{image}</div>
      </div>
    </section>
  );
}
