import type * as React from "react";
import { Toaster as Sonner } from "sonner";

// Sonner's own rich colours give its text under 4.5:1 on its tinted backgrounds; the theme's pass AA.
const legibleRichColors = {
  "--success-text": "hsl(var(--success))",
  "--error-text": "hsl(var(--destructive))",
  "--info-text": "hsl(var(--link))",
  "--warning-text": "hsl(var(--warning))",
} as React.CSSProperties;

export default function SonnerToaster({ style, ...props }: React.ComponentProps<typeof Sonner>) {
  return (
    <Sonner
      data-slot="toaster"
      position="top-center"
      richColors
      style={{ ...legibleRichColors, ...style }}
      {...props}
    />
  );
}
