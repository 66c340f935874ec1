import { Menu, X } from "lucide-react";
import { buttonVariants } from "~/components/ui/button";

const MENU_ID = "mobile-menu";

/** The header's button that opens the mobile menu (small screens only). */
export function MobileMenuToggle() {
  return (
    <button
      type="button"
      popoverTarget={MENU_ID}
      aria-label="Open menu"
      className={buttonVariants({ variant: "outline", size: "icon", className: "lg:hidden" })}
    >
      <Menu aria-hidden="true" />
    </button>
  );
}

/**
 * The header's menu on small screens, as a native popover: it opens from its toggle, closes with
 * Escape, a click outside it or its close button, and does all of that without JavaScript, so the
 * pages that are not hydrated have it too. It is drawn in the top layer wherever it sits, so it
 * sits after the header rather than in its landmark. `resetKey` (the path) remounts it after a
 * client-side navigation, which closes it for the new page.
 */
export function MobileMenu({ resetKey, children }: { resetKey: string; children: React.ReactNode }) {
  return (
    <div
      key={resetKey}
      id={MENU_ID}
      popover="auto"
      role="dialog"
      aria-labelledby={`${MENU_ID}-title`}
      className="inset-y-0 right-0 left-auto m-0 h-dvh max-h-none w-80 max-w-[85vw] overflow-y-auto border-0 border-l bg-background p-0 pb-6 text-foreground shadow-lg backdrop:bg-black/50 lg:hidden"
    >
      <div className="flex items-center justify-between p-4">
        <h2 id={`${MENU_ID}-title`} className="font-semibold">
          Menu
        </h2>
        <button
          type="button"
          popoverTarget={MENU_ID}
          popoverTargetAction="hide"
          aria-label="Close"
          className={buttonVariants({ variant: "ghost", size: "icon" })}
        >
          <X aria-hidden="true" />
        </button>
      </div>
      {children}
    </div>
  );
}
