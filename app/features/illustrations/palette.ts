import { hslToRgb, parseHslTriplet } from "~/lib/hsl";
import type { HslTriplet, SiteConfig } from "~/features/site-config/types";

/** The colours the illustrations are drawn in: the brand's, as hex, plus fixed neutrals. */
export interface Palette {
  primary: string;
  primaryLight: string;
  primaryDark: string;
  accent: string;
  secondary: string;
  ink: string;
  line: string;
  paper: string;
  skin: string;
}

function hex(triplet: HslTriplet): string {
  const hsl = parseHslTriplet(triplet);
  if (!hsl) throw new Error(`not an HSL triplet: "${triplet}"`);
  return `#${hslToRgb(hsl)
    .map((channel) => channel.toString(16).padStart(2, "0"))
    .join("")}`;
}

export function paletteFrom(colors: SiteConfig["colors"]): Palette {
  return {
    primary: hex(colors.primary),
    primaryLight: hex(colors.primaryLight),
    primaryDark: hex(colors.primaryDark),
    accent: hex(colors.accent),
    secondary: hex(colors.secondary),
    ink: "#0f172a",
    line: "#cbd5e1",
    paper: "#ffffff",
    skin: "#f2c7a5",
  };
}
