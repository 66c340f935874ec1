import { ArrowRight } from "lucide-react";
import { useRef } from "react";
import { Link } from "react-router";
import { CheckList, CheckListItem } from "~/components/ui/check-list";
import { useCurrency } from "~/components/layout/currency-menu";
import { SectionHeading } from "~/components/layout/section-heading";
import { STACK_WITHOUT_SCRIPT, StackTabsWithoutScript } from "~/components/ui/stack-tabs-without-script";
import { TABS_IN_URL_HASH, TabsScript } from "~/components/ui/tabs-script";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "~/components/ui/tabs";
import { formatPrice } from "~/lib/currency";
import { serviceTabs, type ServiceTab } from "~/features/services/service-catalog";
import { useServiceTab } from "./use-service-tab";

function ServicePanel({ service }: { service: ServiceTab }) {
  const Icon = service.icon;
  return (
    // The id is the tab's hash, so that without JavaScript /services#checkin scrolls to its panel.
    <div
      id={service.id}
      className="grid scroll-mt-24 gap-8 rounded-2xl border bg-card p-6 shadow-sm sm:p-10 md:grid-cols-[auto_1fr]"
    >
      <span className="flex size-16 items-center justify-center rounded-2xl bg-primary-light text-link">
        <Icon className="size-8" aria-hidden="true" />
      </span>
      <div>
        <h3 className="text-2xl font-bold tracking-tight">{service.title}</h3>
        <p className="mt-3 max-w-3xl text-lg text-muted-foreground">{service.intro}</p>
        <CheckList className="mt-6 grid gap-3 md:grid-cols-2">
          {service.highlights.map((highlight) => (
            <CheckListItem key={highlight}>{highlight}</CheckListItem>
          ))}
        </CheckList>
        {service.link ? (
          <Link
            to={service.link.to}
            className="mt-8 inline-flex items-center gap-2 font-semibold text-link hover:underline"
          >
            {service.link.label}
            <ArrowRight className="size-4" aria-hidden="true" />
          </Link>
        ) : null}
      </div>
    </div>
  );
}

/** The six services as tabs; the URL hash (#subscription … #checkin) opens one of them. */
export function ServicesTabs() {
  const currency = useCurrency();
  const services = serviceTabs((amount) => formatPrice(amount, currency.code));
  const section = useRef<HTMLElement>(null);
  const [tab, pick] = useServiceTab(section);

  return (
    <section ref={section} aria-labelledby="services-tabs-heading" className="scroll-mt-16 px-4 py-16 sm:px-6 sm:py-20">
      <StackTabsWithoutScript />
      <TabsScript />
      <SectionHeading
        id="services-tabs-heading"
        eyebrow="Explore"
        title="Everything your membership includes"
        lead="Choose a service to see what it does for you."
      />
      <Tabs
        value={tab}
        onValueChange={pick}
        className="mx-auto mt-10 max-w-6xl gap-6"
        {...STACK_WITHOUT_SCRIPT}
        {...TABS_IN_URL_HASH}
      >
        <TabsList className="grid h-auto w-full grid-cols-2 gap-1 sm:grid-cols-3 lg:grid-cols-6">
          {services.map((service) => (
            <TabsTrigger key={service.id} value={service.id} className="h-10">
              <service.icon aria-hidden="true" />
              {service.label}
            </TabsTrigger>
          ))}
        </TabsList>
        {services.map((service) => (
          <TabsContent key={service.id} value={service.id} forceMount className="data-[state=inactive]:hidden">
            <ServicePanel service={service} />
          </TabsContent>
        ))}
      </Tabs>
    </section>
  );
}
