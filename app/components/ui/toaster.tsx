import type * as React from "react";
import { Toaster as Sonner } from "sonner";

/** Sonner's rich-colour texts, darkened to reach WCAG AA (4.5:1) on their pale backgrounds. */
const legibleRichColors = {
  "--success-text": "hsl(140, 100%, 22%)",
  "--info-text": "hsl(210, 92%, 35%)",
  "--warning-text": "hsl(31, 92%, 28%)",
  "--error-text": "hsl(360, 100%, 37%)",
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
