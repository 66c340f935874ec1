import type { ReactNode } from "react";
import { cn } from "~/lib/class-names";

export interface LegalSectionContent {
  /** The section's anchor, so that other pages can link to `/terms#<id>`. */
  id: string;
  title: string;
  body: ReactNode;
}

/** Long-form text styles for the section bodies (no typography plugin is installed). */
const PROSE = cn(
  "space-y-4 text-base leading-7",
  "[&_a]:font-medium [&_a]:text-link [&_a]:underline [&_a]:underline-offset-4",
  "[&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6 [&_ul_ul]:list-[circle] [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-6",
  "[&_li]:pl-1 [&_strong]:font-semibold",
  "[&_h3]:pt-2 [&_h3]:text-lg [&_h3]:font-semibold",
);

const LAST_UPDATED_FORMAT = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});

/** One titled part of a legal text, numbered when it belongs to the document's numbered sections. */
export function LegalSection({
  id,
  number,
  title,
  children,
}: {
  id: string;
  number?: number;
  title: string;
  children: ReactNode;
}) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="scroll-mt-24">
      <h2 id={`${id}-heading`} className="text-xl font-semibold tracking-tight text-balance sm:text-2xl">
        {number === undefined ? null : (
          <>
            <span className="text-link tabular-nums">{number}.</span>{" "}
          </>
        )}
        {title}
      </h2>
      <div className={cn("mt-4", PROSE)}>{children}</div>
    </section>
  );
}

function ContentsEntries({ sections }: { sections: LegalSectionContent[] }) {
  return sections.map((section) => (
    <li key={section.id}>
      <a
        href={`#${section.id}`}
        className="block rounded-md px-2 py-1 text-sm leading-5 hover:bg-muted hover:text-link focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
      >
        {section.title}
      </a>
    </li>
  ));
}

function TableOfContents({
  sections,
  appendices,
}: {
  sections: LegalSectionContent[];
  appendices: LegalSectionContent[];
}) {
  return (
    <nav
      aria-labelledby="contents-heading"
      className="rounded-xl border bg-muted/40 p-4 sm:p-5 lg:sticky lg:top-24 lg:max-h-[calc(100dvh-8rem)] lg:overflow-y-auto"
    >
      <h2 id="contents-heading" className="px-2 text-sm font-semibold tracking-wide text-muted-foreground uppercase">
        Contents
      </h2>
      <ol className="mt-3 list-decimal space-y-0.5 pl-7 marker:text-sm marker:text-muted-foreground">
        <ContentsEntries sections={sections} />
      </ol>
      {appendices.length > 0 ? (
        <ul className="mt-2 border-t pt-2 pl-7">
          <ContentsEntries sections={appendices} />
        </ul>
      ) : null}
    </nav>
  );
}

/**
 * The layout shared by the terms, subscription terms and privacy policy: the page's one h1, the
 * date of the text, numbered sections with anchors and, for long texts, a table of contents that
 * sits beside the text on wide screens.
 */
export function LegalDocument({
  title,
  lastUpdated,
  lead,
  intro,
  sections,
  appendices = [],
  tableOfContents = false,
}: {
  title: string;
  /** ISO date of the text's last change, shown as "Last updated 21 March 2025". */
  lastUpdated?: string;
  lead?: string;
  intro?: ReactNode;
  sections: LegalSectionContent[];
  /** Unnumbered parts after the numbered sections, such as a model form. */
  appendices?: LegalSectionContent[];
  tableOfContents?: boolean;
}) {
  return (
    <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6 sm:py-16">
      <div
        className={cn(
          "mx-auto max-w-3xl",
          tableOfContents && "lg:grid lg:max-w-none lg:grid-cols-[16rem_minmax(0,48rem)] lg:justify-center lg:gap-x-12",
        )}
      >
        <header className="border-b pb-8 lg:col-start-2">
          <h1 className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">{title}</h1>
          {lastUpdated ? (
            <p className="mt-3 text-base text-muted-foreground">
              Last updated <time dateTime={lastUpdated}>{LAST_UPDATED_FORMAT.format(new Date(lastUpdated))}</time>
            </p>
          ) : null}
          {lead ? <p className="mt-3 text-lg text-muted-foreground">{lead}</p> : null}
          {intro ? <div className={cn("mt-6", PROSE)}>{intro}</div> : null}
        </header>
        {tableOfContents ? (
          <aside className="mt-8 lg:col-start-1 lg:row-span-2 lg:row-start-1 lg:mt-0">
            <TableOfContents sections={sections} appendices={appendices} />
          </aside>
        ) : null}
        <div className="mt-10 space-y-12 lg:col-start-2">
          {sections.map((section, index) => (
            <LegalSection key={section.id} id={section.id} number={index + 1} title={section.title}>
              {section.body}
            </LegalSection>
          ))}
          {appendices.map((appendix) => (
            <LegalSection key={appendix.id} id={appendix.id} title={appendix.title}>
              {appendix.body}
            </LegalSection>
          ))}
        </div>
      </div>
    </div>
  );
}
