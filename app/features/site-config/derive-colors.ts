import { formatHslTriplet, hslToRgb, parseHslTriplet, type Hsl } from "~/lib/hsl";
import type { HslTriplet, SiteConfig } from "./types";

const HEX = /^#([0-9a-f]{6})$/i;

/** "#1182d4" -> "205 85% 45%"; anything but a 6-digit hex colour becomes black, "0 0% 0%". */
export function hexToHslTriplet(hex: string): HslTriplet {
  const match = HEX.exec(hex.trim());
  if (!match) return "0 0% 0%";
  const value = Number.parseInt(match[1]!, 16);
  const [r, g, b] = [(value >> 16) & 255, (value >> 8) & 255, value & 255].map((channel) => channel / 255) as [
    number,
    number,
    number,
  ];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const lightness = (max + min) / 2;
  const chroma = max - min;
  if (chroma === 0) return formatHslTriplet({ h: 0, s: 0, l: lightness * 100 });
  const saturation = chroma / (1 - Math.abs(2 * lightness - 1));
  const sector = max === r ? ((g - b) / chroma) % 6 : max === g ? (b - r) / chroma + 2 : (r - g) / chroma + 4;
  const hue = (sector * 60 + 360) % 360;
  return formatHslTriplet({ h: hue, s: saturation * 100, l: lightness * 100 });
}

/** "205 85% 45%" -> "#1182d4", for a colour picker; undefined when the text is not an HSL triplet. */
export function hslTripletToHex(triplet: string): string | undefined {
  const hsl = parseHslTriplet(triplet);
  if (!hsl) return undefined;
  return `#${hslToRgb(hsl)
    .map((channel) => channel.toString(16).padStart(2, "0"))
    .join("")}`;
}

const clamp = (value: number) => Math.min(100, Math.max(0, value));

/**
 * The brand palette from the two colours a person picks: a light tint and a dark shade of the
 * primary colour, and a near-white secondary background of the same hue. From the site's own
 * primary and accent this gives exactly the palette of site.config.ts.
 */
export function deriveBrandColors(primary: HslTriplet, accent: HslTriplet): SiteConfig["colors"] {
  const base = parseHslTriplet(primary);
  if (!base || !parseHslTriplet(accent)) throw new Error(`Not HSL triplets: "${primary}", "${accent}"`);
  const shade = (hsl: Partial<Hsl>) => formatHslTriplet({ ...base, ...hsl });
  return {
    primary: formatHslTriplet(base),
    primaryLight: shade({ l: 92 }),
    primaryDark: shade({ l: clamp(base.l - 15) }),
    accent: formatHslTriplet(parseHslTriplet(accent)!),
    secondary: shade({ s: Math.min(base.s, 40), l: 96 }),
  };
}
