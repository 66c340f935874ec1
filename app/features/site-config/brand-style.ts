import type { SiteConfig } from "./types";

/** The brand colours as the CSS variables the Tailwind theme reads (see app.css). */
export function brandCssVariables(colors: SiteConfig["colors"]): string {
  return `:root{--primary:${colors.primary};--primary-light:${colors.primaryLight};--primary-dark:${colors.primaryDark};--accent:${colors.accent};--secondary:${colors.secondary};}`;
}
