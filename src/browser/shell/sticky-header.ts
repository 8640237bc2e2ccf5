/**
 * The sticky header (spec §2 Header, §9 "Header hide animation 300 ms"): `Header.astro`'s
 * `[data-sticky-header]` is `position: sticky` and slides up out of view (a transform, so
 * nothing below moves: no layout shift) while the shopper scrolls down, back as soon as they
 * scroll up. It stays while the page is near its top, while a menu, popover or the search
 * panel is open, and while the keyboard focus is inside it (`sticky-header-state.ts` decides).
 * Under `prefers-reduced-motion: reduce` it moves without animation (global.css).
 *
 * It also keeps `--header-height` on the root element: the page's `scroll-padding-top`, so an
 * element scrolled into view by focus or a fragment never ends up under the header.
 */
import { nextStickyState, type StickyState } from './sticky-header-state.ts';

const header = document.querySelector<HTMLElement>('[data-sticky-header]');

if (header !== null) {
  const root = document.documentElement;
  // The scroll position is read in a frame, where the layout it needs is due anyway: read
  // while this module runs, it forced a whole-page layout in the middle of the page's load.
  let state: StickyState = { hidden: false, anchorY: 0 };
  let frame = requestAnimationFrame(() => {
    frame = 0;
    state = { hidden: false, anchorY: window.scrollY };
  });

  // In use: focus shown inside it (a text field, or keyboard focus; a mouse click on one of its
  // buttons does not keep it from hiding), an expanded control (the search combobox), a mega
  // menu under the pointer, or any open popover (menu sidebar, newsletter panel).
  const locked = () =>
    header.querySelector(':focus-visible, [aria-expanded="true"], [data-menu-item]:hover') !==
      null || document.querySelector(':popover-open') !== null;

  const update = () => {
    frame = 0;
    const next = nextStickyState(state, window.scrollY, {
      locked: locked(),
      topThreshold: header.offsetHeight,
      maxY: root.scrollHeight - window.innerHeight,
    });
    if (next.hidden !== state.hidden) header.toggleAttribute('data-header-hidden', next.hidden);
    state = next;
  };
  const schedule = () => {
    frame ||= requestAnimationFrame(update);
  };

  window.addEventListener('scroll', schedule, { passive: true });
  // Keyboard focus entering the hidden header brings it back at once; so does a popover opening.
  header.addEventListener('focusin', schedule);
  document.addEventListener('toggle', schedule, { capture: true });
  // A page restored from the back/forward cache starts from its own scroll position.
  window.addEventListener('pageshow', (event) => {
    if (event.persisted) schedule();
  });

  let height = '';
  new ResizeObserver(() => {
    const next = `${header.offsetHeight}px`;
    if (next === height) return;
    height = next;
    root.style.setProperty('--header-height', height);
  }).observe(header);
}
