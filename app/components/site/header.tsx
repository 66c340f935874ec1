import { lazy, Suspense, useRef, useState } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";
import { ExternalLink, LayoutDashboard, LogOut, Menu, Phone } from "lucide-react";
import { Button } from "~/components/ui/button";
import { useAccount } from "~/features/auth/use-account";
import { cn } from "~/lib/class-names";
import { siteConfig } from "../../../site.config";
import { BrandLogo } from "./brand-logo";
import { CurrencyMenu } from "./currency-menu";
import { HEADER_LINKS, memberAreaUrl, telHref } from "./nav-links";
import { usePricingHighlight } from "./use-pricing-highlight";

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

/** Admin (for admins), then Sign Out for a signed-in visitor or Login to the member area for anyone else. */
function AccountButtons({ className, onSignOut }: { className?: string; onSignOut?: () => void }) {
  const { user, isAdmin } = useAccount();
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
      {user ? (
        <Form method="post" action="/sign-out" onSubmit={onSignOut}>
          <Button type="submit" variant="outline">
            <LogOut aria-hidden="true" />
            Sign Out
          </Button>
        </Form>
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

const MobileMenu = lazy(() => import("./mobile-menu"));

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn("rounded-md px-3 py-2 text-sm font-medium transition-colors hover:text-link", isActive && "text-link");

export function Header() {
  const highlighted = usePricingHighlight();
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuLoaded, setMenuLoaded] = useState(false);
  const menuToggle = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();
  const [menuPath, setMenuPath] = useState(pathname);
  if (menuPath !== pathname) {
    // A link in the mobile menu was followed: close the menu for the new page.
    setMenuPath(pathname);
    setMenuOpen(false);
  }

  return (
    <header
      data-highlighted={highlighted}
      className={cn(
        "sticky top-0 z-40 border-b bg-background/95 backdrop-blur transition-colors",
        highlighted && "border-primary bg-primary-light shadow-md",
      )}
    >
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
        <BrandLogo />
        <nav aria-label="Main" className="hidden items-center gap-1 lg:flex">
          {HEADER_LINKS.map((link) => (
            <NavLink key={link.to} to={link.to} end className={navLinkClass}>
              {link.label}
            </NavLink>
          ))}
        </nav>
        <div className="hidden items-center gap-3 lg:flex">
          <PhoneLink />
          <CurrencyMenu />
          <AccountButtons />
        </div>
        <Button
          ref={menuToggle}
          variant="outline"
          size="icon"
          className="lg:hidden"
          aria-label="Open menu"
          aria-haspopup="dialog"
          aria-expanded={menuOpen}
          onClick={() => {
            setMenuLoaded(true);
            setMenuOpen(true);
          }}
        >
          <Menu aria-hidden="true" />
        </Button>
        {menuLoaded ? (
          <Suspense fallback={null}>
            <MobileMenu open={menuOpen} onOpenChange={setMenuOpen} toggle={menuToggle}>
              <nav aria-label="Mobile" className="flex flex-col gap-1 px-4">
                {HEADER_LINKS.map((link) => (
                  <NavLink key={link.to} to={link.to} end className={navLinkClass}>
                    {link.label}
                  </NavLink>
                ))}
              </nav>
              <div className="flex flex-col gap-4 px-4 pt-4">
                <PhoneLink className="px-3" />
                <CurrencyMenu align="start" className="w-fit" />
                <AccountButtons className="flex-wrap" onSignOut={() => setMenuOpen(false)} />
              </div>
            </MobileMenu>
          </Suspense>
        ) : null}
      </div>
    </header>
  );
}
