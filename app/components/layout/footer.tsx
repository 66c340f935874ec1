import { Link } from "react-router";
import { Mail, MapPin, Phone } from "lucide-react";
import { siteConfig } from "../../../site.config";
import { BrandLogo } from "./brand-logo";
import { CurrencyMenu } from "./currency-menu";
import { FOOTER_COLUMNS, telHref, type NavLink } from "./nav-links";

function LinkColumn({ title, links }: { title: string; links: readonly NavLink[] }) {
  return (
    <nav aria-label={title}>
      <h2 className="mb-3 text-sm font-semibold tracking-wide uppercase">{title}</h2>
      <ul className="space-y-2 text-sm">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className="text-muted-foreground hover:text-link">
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function Footer() {
  const { company } = siteConfig;
  return (
    <footer className="mt-auto border-t bg-muted/50">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-2 lg:grid-cols-5">
        <div className="space-y-4 lg:col-span-2">
          <BrandLogo />
          <address className="space-y-2 text-sm text-muted-foreground not-italic">
            <p className="flex items-start gap-2">
              <MapPin className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              {company.address}
            </p>
            <p>
              <a href={`mailto:${company.email}`} className="inline-flex items-center gap-2 hover:text-link">
                <Mail className="size-4" aria-hidden="true" />
                {company.email}
              </a>
            </p>
            <p>
              <a href={telHref(company.phone)} className="inline-flex items-center gap-2 hover:text-link">
                <Phone className="size-4" aria-hidden="true" />
                {company.phone}
              </a>
            </p>
          </address>
          <CurrencyMenu align="start" side="above" className="w-fit" />
        </div>
        {FOOTER_COLUMNS.map((column) => (
          <LinkColumn key={column.title} {...column} />
        ))}
      </div>
      <div className="border-t">
        <p className="mx-auto max-w-7xl px-4 py-6 text-sm text-muted-foreground sm:px-6">
          © 2025 {company.legalName.replace(/\.?$/, ".")} All rights reserved.
        </p>
      </div>
    </footer>
  );
}
