/** Matches `name` as a whole word (not inside a longer word), in any letter case. */
export function brandNamePattern(name: string): RegExp {
  const escaped = name
    .trim()
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    .replace(/\s+/g, "\\s+");
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, "giu");
}

/** `text` with every mention of the brand `from` replaced by `to`. */
export function replaceBrandName(text: string, from: string, to: string): string {
  if (!from.trim()) return text;
  return text.replace(brandNamePattern(from), () => to);
}
