import { concierge, fastTrack, hero, services } from "./drawings";
import { paletteFrom, type Palette } from "./palette";
import type { SiteConfig } from "~/features/site-config/types";

const DRAWINGS = {
  hero,
  concierge,
  "fast-track": fastTrack,
  services,
} satisfies Record<string, (palette: Palette) => string>;

export type IllustrationName = keyof typeof DRAWINGS;

/** The SVG document served as `/images/{name}.svg`, or undefined for an unknown file name. */
export function illustrationSvg(fileName: string, colors: SiteConfig["colors"]): string | undefined {
  const match = /^([a-z-]+)\.svg$/.exec(fileName);
  const name = match?.[1];
  if (!name || !Object.hasOwn(DRAWINGS, name)) return undefined;
  return DRAWINGS[name as IllustrationName](paletteFrom(colors));
}
