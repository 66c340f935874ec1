import type { HslTriplet } from "~/features/site-config/types";

export interface Hsl {
  h: number;
  s: number;
  l: number;
}

const TRIPLET = /^\s*(-?\d+(?:\.\d+)?)\s+(\d+(?:\.\d+)?)%\s+(\d+(?:\.\d+)?)%\s*$/;

/** Reads "205 85% 45%"; undefined for anything else. */
export function parseHslTriplet(value: string): Hsl | undefined {
  const match = TRIPLET.exec(value);
  if (!match) return undefined;
  const [h, s, l] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (s > 100 || l > 100) return undefined;
  return { h: ((h % 360) + 360) % 360, s, l };
}

export function formatHslTriplet({ h, s, l }: Hsl): HslTriplet {
  return `${Math.round(h)} ${Math.round(s)}% ${Math.round(l)}%`;
}

/** sRGB channels 0-255. */
export function hslToRgb({ h, s, l }: Hsl): [number, number, number] {
  const saturation = s / 100;
  const lightness = l / 100;
  const chroma = saturation * Math.min(lightness, 1 - lightness);
  const channel = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (lightness - chroma * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [channel(0), channel(8), channel(4)];
}

/** WCAG 2 relative luminance of an sRGB colour. */
export function relativeLuminance([r, g, b]: [number, number, number]): number {
  const linear = (value: number) => {
    const c = value / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

export function contrastRatio(a: Hsl, b: Hsl): number {
  const [lighter, darker] = [relativeLuminance(hslToRgb(a)), relativeLuminance(hslToRgb(b))].sort((x, y) => y - x);
  return (lighter! + 0.05) / (darker! + 0.05);
}

const WHITE: Hsl = { h: 0, s: 0, l: 100 };
const INK: Hsl = { h: 222, s: 47, l: 5 };

/** White or near-black, whichever reads better on `background`, so any brand colour keeps text legible. */
export function readableForeground(background: Hsl): HslTriplet {
  return contrastRatio(background, WHITE) >= contrastRatio(background, INK)
    ? formatHslTriplet(WHITE)
    : formatHslTriplet(INK);
}

/** `colour` darkened just enough to read as text on `background` (WCAG AA, 4.5:1). */
export function readableOn(colour: Hsl, background: Hsl = WHITE): HslTriplet {
  let candidate = colour;
  while (contrastRatio(candidate, background) < 4.5 && candidate.l > 0) {
    candidate = { ...candidate, l: Math.max(0, candidate.l - 1) };
  }
  return formatHslTriplet(candidate);
}
