import type { RefObject } from "react";
import { Sheet, SheetContent, SheetDescription, SheetHeader, SheetTitle } from "~/components/ui/sheet";

/**
 * The header's menu on small screens. Loaded with its first opening (see header.tsx), so Radix's
 * dialog stays out of every page's first download; the toggle lives in the header, hence the
 * explicit focus return.
 */
export default function MobileMenu({
  open,
  onOpenChange,
  toggle,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  toggle: RefObject<HTMLButtonElement | null>;
  children: React.ReactNode;
}) {
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent
        side="right"
        className="w-80"
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          toggle.current?.focus();
        }}
      >
        <SheetHeader>
          <SheetTitle>Menu</SheetTitle>
          <SheetDescription className="sr-only">Site navigation</SheetDescription>
        </SheetHeader>
        {children}
      </SheetContent>
    </Sheet>
  );
}
