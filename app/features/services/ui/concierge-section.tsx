import { ArrowRight } from "lucide-react";
import { Link } from "react-router";
import { serviceHref } from "~/features/services/service-tabs";
import { siteConfig } from "../../../../site.config";
import { CheckList, CheckListItem } from "~/components/ui/check-list";
import { Illustration } from "~/features/illustrations/ui/illustration";
import { SectionHeading } from "~/components/layout/section-heading";

/**
 * The concierge service beside its illustration. On the home page the benefits are a checklist
 * with a link to the concierge tab; `detailed` (on /services) explains each benefit instead.
 */
export function ConciergeSection({ detailed = false }: { detailed?: boolean }) {
  const { concierge } = siteConfig.content;
  return (
    <section aria-labelledby="concierge-heading" className="px-4 py-16 sm:px-6 sm:py-24">
      <div className="mx-auto grid max-w-7xl items-center gap-12 lg:grid-cols-2 lg:gap-20">
        <Illustration
          name="concierge"
          alt="A phone showing a chat with the concierge, a service bell and a confirmed booking"
          width={480}
          height={400}
          className="mx-auto h-auto w-full max-w-md"
        />
        <div>
          <SectionHeading
            id="concierge-heading"
            eyebrow={detailed ? "Concierge benefits" : "Concierge"}
            title={concierge.title}
            lead={concierge.description}
            align="start"
          />
          <CheckList className={detailed ? "mt-8 grid gap-6 sm:grid-cols-2" : "mt-8 grid gap-4 sm:grid-cols-2"}>
            {concierge.benefits.map((benefit) => (
              <CheckListItem key={benefit.title}>
                <span>
                  <span className="font-semibold">{benefit.title}</span>
                  {detailed ? (
                    <span className="mt-1 block text-sm text-muted-foreground">{benefit.description}</span>
                  ) : null}
                </span>
              </CheckListItem>
            ))}
          </CheckList>
          {detailed ? null : (
            <Link
              to={serviceHref("concierge")}
              className="mt-8 inline-flex items-center gap-2 font-semibold text-link hover:underline"
            >
              Discover the concierge service
              <ArrowRight className="size-4" aria-hidden="true" />
            </Link>
          )}
        </div>
      </div>
    </section>
  );
}
