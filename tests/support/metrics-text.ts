/** One sample of the Prometheus text format: `name{labels} value`. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;

export function parseSamples(text: string): Sample[] {
  return text.split("\n").flatMap((line) => {
    const match = SAMPLE.exec(line);
    if (!match || line.startsWith("#")) return [];
    const labels = Object.fromEntries([...(match[2] ?? "").matchAll(LABEL)].map(([, key, value]) => [key!, value!]));
    return [{ name: match[1]!, labels, value: Number(match[3]) }];
  });
}

/** The value of the sample `name` with exactly these labels, or undefined when the text has none. */
export function sampleValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels);
  return parseSamples(text).find(
    (sample) =>
      sample.name === name &&
      Object.keys(sample.labels).length === wanted.length &&
      wanted.every(([key, value]) => sample.labels[key] === value),
  )?.value;
}

/** How much the sample grew from `before` to `after` (a sample not there yet counts as 0). */
export function growth(before: string, after: string, name: string, labels: Record<string, string> = {}): number {
  return (sampleValue(after, name, labels) ?? 0) - (sampleValue(before, name, labels) ?? 0);
}
