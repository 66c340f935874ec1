import { cn } from "~/lib/class-names";

export interface ChartSeries {
  label: string;
  /** The bars' fill, a Tailwind class such as "fill-green-700", and its legend swatch ("bg-green-700"). */
  fill: string;
  swatch: string;
  values: number[];
}

interface BarChartProps {
  id: string;
  title: string;
  /** What the chart shows, in words, for people who cannot see it; the figures are in a table too. */
  description: string;
  /** One label per bar: the first and last are printed under the axis, all are in the bars' tooltips. */
  labels: string[];
  /** Stacked bottom to top, in this order. */
  series: ChartSeries[];
  formatValue: (value: number) => string;
}

/** The smallest of 1, 2, 2.5 or 5 times a power of ten that is at least `value`: a readable axis top. */
export function axisMaximum(value: number): number {
  if (value <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  const factor = [1, 2, 2.5, 5, 10].find((candidate) => candidate * magnitude >= value)!;
  return factor * magnitude;
}

const HEIGHT = 100;

/**
 * A bar chart drawn on the server as SVG: no script, any width. The SVG stretches to its box, so
 * its axis labels are HTML beside it, where text keeps its size.
 */
export function BarChart({ id, title, description, labels, series, formatValue }: BarChartProps) {
  const stackTotals = labels.map((_, index) => series.reduce((total, { values }) => total + (values[index] ?? 0), 0));
  const top = axisMaximum(Math.max(0, ...stackTotals));
  const scale = (value: number) => (value / top) * HEIGHT;
  return (
    <figure className="grid gap-2">
      <figcaption className="text-sm font-medium">{title}</figcaption>
      <div className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-2 gap-y-1">
        <div
          aria-hidden="true"
          className="flex h-40 flex-col justify-between text-right text-xs text-muted-foreground tabular-nums"
        >
          <span className="-translate-y-1/2">{formatValue(top)}</span>
          <span className="translate-y-1/2">{formatValue(0)}</span>
        </div>
        <svg
          role="img"
          aria-labelledby={`${id}-title`}
          aria-describedby={`${id}-desc`}
          viewBox={`0 0 ${labels.length} ${HEIGHT}`}
          preserveAspectRatio="none"
          className="h-40 w-full overflow-visible"
        >
          <title id={`${id}-title`}>{title}</title>
          <desc id={`${id}-desc`}>{description}</desc>
          {[0, HEIGHT / 2, HEIGHT].map((y) => (
            <line
              key={y}
              x1={0}
              x2={labels.length}
              y1={y}
              y2={y}
              className="stroke-border"
              vectorEffect="non-scaling-stroke"
            />
          ))}
          {labels.map((label, index) => {
            let base = HEIGHT;
            return (
              <g key={label}>
                <title>{`${label} : ${series.map(({ label: name, values }) => `${name} ${formatValue(values[index] ?? 0)}`).join(", ")}`}</title>
                {series.map(({ label: name, fill, values }) => {
                  const height = scale(values[index] ?? 0);
                  base -= height;
                  return <rect key={name} x={index + 0.15} width={0.7} y={base} height={height} className={fill} />;
                })}
              </g>
            );
          })}
        </svg>
        <span />
        <div aria-hidden="true" className="flex justify-between gap-4 text-xs text-muted-foreground">
          <span>{labels[0]}</span>
          {labels.length > 1 ? <span>{labels.at(-1)}</span> : null}
        </div>
      </div>
      {series.length > 1 ? <ChartLegend series={series} /> : null}
    </figure>
  );
}

function ChartLegend({ series }: { series: ChartSeries[] }) {
  return (
    <ul aria-hidden="true" className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
      {series.map(({ label, swatch }) => (
        <li key={label} className="flex items-center gap-1.5">
          <span className={cn("inline-block size-3 rounded-sm", swatch)} />
          {label}
        </li>
      ))}
    </ul>
  );
}
