/**
 * When the sticky header hides (spec §2 Header, §9 "Header hide animation 300 ms"): it slides
 * away while the shopper scrolls down and comes back as soon as they scroll up. Pure: the
 * script (`sticky-header.ts`) feeds it the scroll position and whether something inside the
 * header is in use.
 */

/** Scroll moves smaller than this (px) change nothing: a trackpad's jitter, a bounce. */
export const STICKY_TOLERANCE_PX = 8;

export interface StickyState {
  hidden: boolean;
  /** Scroll position of the last decision: small moves add up until they reach the tolerance. */
  anchorY: number;
}

export interface StickyContext {
  /**
   * Something in the header is in use: a menu, popover or the search panel is open, or the
   * keyboard focus is inside it. The header is then always shown.
   */
  locked: boolean;
  /** Up to this scroll position (the header's height) the header never hides. */
  topThreshold: number;
  /** Largest scroll position of the page: overscroll bounces past it count as staying put. */
  maxY: number;
  tolerance?: number;
}

/** The header's next state for the scroll position `scrollY`. */
export function nextStickyState(
  state: StickyState,
  scrollY: number,
  { locked, topThreshold, maxY, tolerance = STICKY_TOLERANCE_PX }: StickyContext,
): StickyState {
  const y = Math.min(Math.max(scrollY, 0), Math.max(maxY, 0));
  if (locked || y <= topThreshold) return { hidden: false, anchorY: y };
  const moved = y - state.anchorY;
  if (Math.abs(moved) < tolerance) return state;
  return { hidden: moved > 0, anchorY: y };
}
