import type { ComponentProps, ReactNode } from "react";
import { siteConfig } from "../../../../site.config";
import { telHref } from "~/components/layout/nav-links";

type ContactLinkProps = Omit<ComponentProps<"a">, "href" | "children"> & { icon?: ReactNode };

/** The company's e-mail address as a mailto link. */
export function CompanyEmailLink({ icon, ...props }: ContactLinkProps) {
  return (
    <a href={`mailto:${siteConfig.company.email}`} {...props}>
      {icon}
      {siteConfig.company.email}
    </a>
  );
}

/** The company's phone number as a tel link. */
export function CompanyPhoneLink({ icon, ...props }: ContactLinkProps) {
  return (
    <a href={telHref(siteConfig.company.phone)} {...props}>
      {icon}
      {siteConfig.company.phone}
    </a>
  );
}
