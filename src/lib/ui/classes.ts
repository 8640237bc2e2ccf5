/**
 * Class strings of the shop's controls, used by the static `Button.astro` and `Input.astro`
 * and by the React islands alike, so an island looks like the page around it.
 */
export type ButtonVariant = 'primary' | 'secondary' | 'outline' | 'ghost' | 'link';
export type ButtonSize = 'sm' | 'md' | 'lg';

/**
 * Classes of a button or button-like link: the named classes of `src/styles/components.css`
 * (`btn`, one variant, one size). `wrap`: for a narrow place (a product card's button, 147 px
 * wide on a 390 px phone), the label may take two lines and the padding is smaller; otherwise
 * it keeps one line. A link has no size: it takes the text around it.
 */
export function buttonClass(
  variant: ButtonVariant = 'primary',
  size: ButtonSize = 'md',
  extra: { fullWidth?: boolean; wrap?: boolean; className?: string } = {},
): string {
  return [
    'btn',
    `btn-${variant}`,
    // Dark surface: light text, light focus ring (global.css).
    variant === 'primary' ? 'on-dark' : '',
    variant === 'link' ? '' : `btn-${size}`,
    extra.wrap === true ? 'btn-wrap' : '',
    extra.fullWidth === true ? 'w-full' : '',
    extra.className ?? '',
  ]
    .filter(Boolean)
    .join(' ');
}

/** Classes of a text input, red-bordered when invalid. */
export function inputClass(invalid: boolean): string {
  return invalid ? 'input input-invalid' : 'input';
}
