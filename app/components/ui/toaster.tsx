import type * as React from "react";
import { Toaster as Sonner } from "sonner";

/** Sonner's rich-colour texts, darkened to reach 4.5:1 on their own backgrounds (WCAG AA). */
const legibleRichColors = {
  "--success-text": "hsl(140 100% 22%)",
  "--info-text": "hsl(210 92% 36%)",
  "--warning-text": "hsl(31 92% 30%)",
  "--error-text": "hsl(360 100% 40%)",
} as React.CSSProperties;

function Toaster({ style, ...props }: React.ComponentProps<typeof Sonner>) {
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

export { Toaster };
