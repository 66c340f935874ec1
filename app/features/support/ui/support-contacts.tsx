import { Clock, Mail, Phone } from "lucide-react";
import { SUPPORT_HOURS } from "~/features/support/support-hours";
import { cn } from "~/lib/class-names";
import { siteConfig } from "../../../../site.config";
import { telHref } from "~/components/layout/nav-links";

const linkClass =
  "inline-flex items-center gap-3 rounded-md font-medium text-link underline-offset-4 hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none";

/** Customer service's phone and e-mail, as links that call and write. */
export function SupportContactLinks({ className }: { className?: string }) {
  const { phone, email } = siteConfig.company;
  const channels = [
    { href: telHref(phone), Icon: Phone, action: "Call us", value: phone },
    { href: `mailto:${email}`, Icon: Mail, action: "Email us", value: email },
  ];
  return (
    <ul className={cn("space-y-3", className)}>
      {channels.map(({ href, Icon, action, value }) => (
        <li key={href}>
          <a href={href} className={linkClass}>
            <Icon className="size-5 shrink-0" aria-hidden="true" />
            <span className="wrap-anywhere">
              <span className="sr-only">{action}: </span>
              {value}
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
}

/** "7 days a week, 9 AM to 8 PM" in a highlighted box. */
export function SupportHoursBox({ className }: { className?: string }) {
  return (
    <aside
      aria-label="Customer service hours"
      className={cn("flex items-start gap-3 rounded-xl border border-primary/30 bg-primary-light px-5 py-4", className)}
    >
      <Clock className="mt-0.5 size-5 shrink-0 text-primary-dark" aria-hidden="true" />
      <p>
        <span className="font-semibold">Customer service hours:</span> {SUPPORT_HOURS}.
      </p>
    </aside>
  );
}
