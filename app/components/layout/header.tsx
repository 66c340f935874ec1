import { Form, Link, NavLink, useLocation } from "react-router";
import { ExternalLink, LayoutDashboard, LogOut, Phone, UserRound } from "lucide-react";
import { Button } from "~/components/ui/button";
import { cn } from "~/lib/class-names";
import { siteConfig } from "../../../site.config";
import { BrandLogo } from "./brand-logo";
import { CurrencyMenu } from "./currency-menu";
import { MobileMenu, MobileMenuToggle } from "./mobile-menu";
import { ACCOUNT_PATH, HEADER_LINKS, memberAreaUrl, telHref } from "./nav-links";

function LoginLink({ className }: { className?: string }) {
  return (
    <Button asChild className={className}>
      <a href={memberAreaUrl(siteConfig.domains.memberArea)} target="_blank" rel="noopener noreferrer">
        Login
        <ExternalLink aria-hidden="true" />
        <span className="sr-only">(opens in a new tab)</span>
      </a>
    </Button>
  );
}

/** Whom the header's buttons are for: what the root loader saw, never used for access. */
interface HeaderAccount {
  signedIn: boolean;
  isAdmin: boolean;
}

/**
 * Admin (for admins), then the account and Sign Out for a signed-in visitor, or Login to the member
 * area for anyone else.
 */
function AccountButtons({ account: { signedIn, isAdmin }, className }: { account: HeaderAccount; className?: string }) {
  return (
    <div className={cn("flex items-center gap-2", className)}>
      {isAdmin ? (
        <Button asChild variant="outline">
          <Link to="/admin">
            <LayoutDashboard aria-hidden="true" />
            Admin
          </Link>
        </Button>
      ) : null}
      {signedIn ? (
        <>
          <Button asChild variant="outline">
            <Link to={ACCOUNT_PATH}>
              <UserRound aria-hidden="true" />
              My Account
            </Link>
          </Button>
          <Form method="post" action="/sign-out">
            <Button type="submit" variant="outline">
              <LogOut aria-hidden="true" />
              Sign Out
            </Button>
          </Form>
        </>
      ) : (
        <LoginLink />
      )}
    </div>
  );
}

function PhoneLink({ className }: { className?: string }) {
  return (
    <a
      href={telHref(siteConfig.company.phone)}
      className={cn("inline-flex items-center gap-2 text-sm font-medium hover:text-link", className)}
    >
      <Phone className="size-4" aria-hidden="true" />
      {siteConfig.company.phone}
    </a>
  );
}

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn("rounded-md px-3 py-2 text-sm font-medium transition-colors hover:text-link", isActive && "text-link");

function HeaderNav({ label, className }: { label: string; className: string }) {
  return (
    <nav aria-label={label} className={className}>
      {HEADER_LINKS.map((link) => (
        <NavLink key={link.to} to={link.to} end className={navLinkClass}>
          {link.label}
        </NavLink>
      ))}
    </nav>
  );
}

export function Header({ account }: { account: HeaderAccount }) {
  const { pathname } = useLocation();

  return (
    <>
      {/* data-highlighted is the pricing section's to change (pricing-highlight.ts). */}
      <header
        data-highlighted="false"
        className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur transition-colors data-[highlighted=true]:border-primary data-[highlighted=true]:bg-primary-light data-[highlighted=true]:shadow-md"
      >
        <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
          <BrandLogo />
          <HeaderNav label="Main" className="hidden items-center gap-1 lg:flex" />
          <div className="hidden items-center gap-3 lg:flex">
            <PhoneLink />
            <CurrencyMenu />
            <AccountButtons account={account} />
          </div>
          <MobileMenuToggle />
        </div>
      </header>
      <MobileMenu resetKey={pathname}>
        <HeaderNav label="Mobile" className="flex flex-col gap-1 px-4" />
        <div className="flex flex-col gap-4 px-4 pt-4">
          <PhoneLink className="px-3" />
          <CurrencyMenu align="start" className="w-fit" />
          <AccountButtons account={account} className="flex-wrap" />
        </div>
      </MobileMenu>
    </>
  );
}
