import type { IllustrationName } from "~/features/illustrations/illustrations";

/**
 * One of the site's SVG illustrations (served by the images route in the brand colours). Pass the
 * size it is laid out at so the page does not shift while it loads; `alt=""` for decoration.
 */
export function Illustration({
  name,
  alt,
  width,
  height,
  priority = false,
  className,
}: {
  name: IllustrationName;
  alt: string;
  width: number;
  height: number;
  /** Above the fold: load at once instead of lazily. */
  priority?: boolean;
  className?: string;
}) {
  return (
    <img
      src={`/images/${name}.svg`}
      alt={alt}
      width={width}
      height={height}
      loading={priority ? "eager" : "lazy"}
      fetchPriority={priority ? "high" : undefined}
      decoding="async"
      className={className}
    />
  );
}
