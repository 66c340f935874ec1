import type * as React from "react";
import { Toaster as Sonner } from "sonner";

function Toaster(props: React.ComponentProps<typeof Sonner>) {
  return <Sonner data-slot="toaster" position="top-center" richColors {...props} />;
}

export { Toaster };
