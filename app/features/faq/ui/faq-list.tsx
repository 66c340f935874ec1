import { Link } from "react-router";
import { ChevronDown, Mail, MessageSquare, Phone } from "lucide-react";
import { Button } from "~/components/ui/button";
import type { FaqItem } from "~/features/faq/ui/questions";
import { SUPPORT_HOURS } from "~/features/support/support-hours";
import { CompanyEmailLink, CompanyPhoneLink } from "~/features/legal/ui/company-contact";

/**
 * Questions as native disclosures: they open and close without JavaScript, and the browser
 * announces their expanded state and finds text inside closed answers with find-in-page.
 */
export function FaqList({ items }: { items: FaqItem[] }) {
  return (
    <div className="divide-y rounded-xl border bg-card shadow-sm">
      {items.map((item) => (
        <details key={item.id} id={item.id} className="group scroll-mt-24">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-xl px-5 py-5 text-left text-lg font-semibold hover:text-link focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none sm:px-6 [&::-webkit-details-marker]:hidden">
            {item.question}
            <ChevronDown
              className="size-5 shrink-0 text-muted-foreground transition-transform group-open:rotate-180"
              aria-hidden="true"
            />
          </summary>
          <div className="space-y-3 px-5 pb-6 text-base leading-7 sm:px-6 [&_a]:font-medium [&_a]:text-link [&_a]:underline [&_a]:underline-offset-4">
            {item.answer}
          </div>
        </details>
      ))}
    </div>
  );
}

/** The box under the questions that points to every way of reaching customer service. */
export function StillHaveQuestions() {
  return (
    <section
      aria-labelledby="still-have-questions"
      className="mt-12 rounded-2xl border border-primary/20 bg-primary-light px-6 py-8 text-center sm:px-10"
    >
      <h2 id="still-have-questions" className="text-2xl font-semibold tracking-tight">
        Still have questions?
      </h2>
      <p className="mx-auto mt-3 max-w-xl text-base leading-7">
        Our customer service team is here to help <span className="whitespace-nowrap">{SUPPORT_HOURS}</span>, by phone,
        e-mail and chat.
      </p>
      <div className="mt-6 flex flex-col items-stretch justify-center gap-3 sm:flex-row sm:flex-wrap sm:items-center">
        <Button asChild size="lg">
          <Link to="/contact">
            <MessageSquare aria-hidden="true" />
            Contact us
          </Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <CompanyPhoneLink icon={<Phone aria-hidden="true" />} />
        </Button>
        <Button asChild size="lg" variant="outline">
          <CompanyEmailLink icon={<Mail aria-hidden="true" />} />
        </Button>
      </div>
    </section>
  );
}
