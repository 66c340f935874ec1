import { parseHslTriplet, readableForeground, readableOn, type Hsl } from "~/lib/hsl";
import type { HslTriplet, SiteConfig } from "./types";

function parse(name: string, value: HslTriplet): Hsl {
  const hsl = parseHslTriplet(value);
  if (!hsl) throw new Error(`site.config.ts colors.${name} must be an HSL triplet like "205 85% 45%", got "${value}"`);
  return hsl;
}

/**
 * The brand colours as the CSS variables the Tailwind theme reads (see app.css), plus the colours
 * derived from them so that any brand stays legible: text on the primary and accent colours, and
 * `--link`, the primary colour dark enough to read as text on white and on primary-light.
 */
export function brandCssVariables(colors: SiteConfig["colors"]): string {
  const primary = parse("primary", colors.primary);
  const accent = parse("accent", colors.accent);
  const primaryLight = parse("primaryLight", colors.primaryLight);
  const variables = {
    "--primary": colors.primary,
    "--primary-foreground": readableForeground(primary),
    "--primary-light": colors.primaryLight,
    "--primary-dark": colors.primaryDark,
    // The header's highlight puts links on primary-light; near-white, so this also reads on white.
    "--link": readableOn(primary, primaryLight),
    "--accent": colors.accent,
    "--accent-foreground": readableForeground(accent),
    "--secondary": colors.secondary,
  };
  return `:root{${Object.entries(variables)
    .map(([name, value]) => `${name}:${value};`)
    .join("")}}`;
}
