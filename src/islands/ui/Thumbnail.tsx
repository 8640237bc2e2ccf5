/**
 * A product's small picture in an island (cart lines, wishlist items, search suggestions): the
 * upstream picture, lazy, decorative (the name beside it says what it is), or an empty tile of
 * the same size when there is none.
 */
import { ICONS } from '../../lib/ui/icons.ts';

export function Thumbnail({
  src,
  size,
  className,
}: {
  src: string | null | undefined;
  /** Intrinsic width and height, in CSS pixels. */
  size: number;
  /** Size classes of the tile (`size-20`...). */
  className: string;
}) {
  const tile = `${className} shrink-0 rounded-control bg-neutral-100`;
  if (src === null || src === undefined || src === '') return <span className={tile} />;
  return (
    <img
      src={src}
      alt=""
      width={size}
      height={size}
      loading="lazy"
      decoding="async"
      className={`${tile} object-cover`}
    />
  );
}

/** The cross of close and clear buttons: the `close` icon of icons.ts, drawn like Icon.astro. */
export function CloseIcon({ className = 'size-5' }: { className?: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d={ICONS.close} />
    </svg>
  );
}
