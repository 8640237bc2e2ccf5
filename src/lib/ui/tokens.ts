/**
 * Design constants of spec §9 that are not CSS tokens (those live in src/styles/global.css),
 * shown on /Design and usable by components that need them in script.
 */

/** spec §9 viewport breakpoints, in CSS pixels. */
export const VIEWPORT_BREAKPOINTS = {
  mobile: 320,
  mobileMedium: 375,
  mobileWide: 425,
  tablet: 768,
  desktop: 1024,
  desktopMedium: 1280,
  desktopWide: 1600,
} as const;

/** spec §9 screens (min widths in px); the same values are the `--breakpoint-*` of global.css. */
export const SCREENS = {
  xs: 320,
  sm: 640,
  md: 768,
  lg: 1024,
  xl: 1280,
  xxl: 1536,
} as const;

/** spec §9 star rating: size in px, step, colour. */
export const STAR = { size: 18, step: 0.5, color: '#CD9C4B' } as const;

/** French one-decimal number format ("4,5") shared by the rating components. */
export const DECIMAL_FORMAT = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 });
