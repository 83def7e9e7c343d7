import type { ResponsiveImage as Sources } from "~/images/image-files";

/**
 * An uploaded image as `<picture>`: AVIF, then WebP copies in several widths,
 * so the browser picks the smallest file that is sharp on its screen; the
 * stored image is the fallback. Images without copies (the bundled sample)
 * are a plain `<img>`. Width and height are always given, so nothing shifts
 * while images load.
 */
export function ResponsiveImage({
  src,
  sources,
  alt,
  width,
  height,
  sizes,
  loading = "lazy",
  priority = false,
  className,
}: {
  src: string;
  sources: Sources | null;
  alt: string;
  width: number;
  height: number;
  /** How wide the image is shown, for picking a copy (the `sizes` attribute). */
  sizes: string;
  loading?: "lazy" | "eager";
  /** The page's largest image (the hero): fetched first. */
  priority?: boolean;
  className?: string;
}) {
  const img = (
    <img
      src={src}
      alt={alt}
      width={width}
      height={height}
      loading={loading}
      fetchPriority={priority ? "high" : undefined}
      decoding="async"
      className={className}
    />
  );
  if (!sources || (!sources.avif && !sources.webp)) return img;
  return (
    <picture>
      {sources.avif ? <source type="image/avif" srcSet={sources.avif} sizes={sizes} /> : null}
      {sources.webp ? <source type="image/webp" srcSet={sources.webp} sizes={sizes} /> : null}
      {img}
    </picture>
  );
}
