/**
 * Tailwind class strings of the shop's controls, used by the static `Button.astro` and
 * `Input.astro` and by the React islands alike, so an island looks like the page around it.
 */
export type ButtonVariant = 'primary' | 'secondary' | 'outline' | 'ghost' | 'link';
export type ButtonSize = 'sm' | 'md' | 'lg';

const BASE =
  'inline-flex items-center justify-center gap-2 rounded-control font-semibold transition-colors duration-150 disabled:cursor-not-allowed disabled:opacity-50 aria-disabled:pointer-events-none aria-disabled:opacity-50';

const VARIANTS: Record<ButtonVariant, string> = {
  primary: 'on-dark bg-primary-800 text-white hover:bg-primary-900 active:bg-primary-950',
  secondary: 'bg-secondary-100 text-primary-900 hover:bg-secondary-200 active:bg-secondary-300',
  outline:
    'border border-primary-800 bg-white text-primary-800 hover:bg-primary-50 active:bg-primary-100',
  ghost: 'text-primary-800 hover:bg-neutral-100 active:bg-neutral-200',
  link: 'text-primary-700 underline underline-offset-4 hover:text-primary-900',
};

const SIZES: Record<ButtonSize, string> = {
  sm: 'min-h-9 text-sm',
  md: 'min-h-11 text-base',
  lg: 'min-h-13 text-lg',
};

const PADDING: Record<ButtonSize, string> = { sm: 'px-3', md: 'px-5', lg: 'px-7' };

/**
 * Classes of a button or button-like link. `wrap`: for a narrow place (a product card's
 * button, 147 px wide on a 390 px phone), the label may take two lines and the padding is
 * smaller; otherwise it keeps one line.
 */
export function buttonClass(
  variant: ButtonVariant = 'primary',
  size: ButtonSize = 'md',
  extra: { fullWidth?: boolean; wrap?: boolean; className?: string } = {},
): string {
  const wrap = extra.wrap === true;
  return [
    BASE,
    VARIANTS[variant],
    wrap ? 'px-2 py-1 text-center leading-tight' : 'whitespace-nowrap',
    variant === 'link' ? 'min-h-0 px-0' : `${SIZES[size]}${wrap ? '' : ` ${PADDING[size]}`}`,
    extra.fullWidth === true ? 'w-full' : '',
    extra.className ?? '',
  ]
    .filter(Boolean)
    .join(' ');
}

/** Classes of a text input, red-bordered when invalid. */
export function inputClass(invalid: boolean): string {
  return [
    'rounded-control min-h-11 w-full border bg-white px-3 text-base text-neutral-900 placeholder:text-neutral-500',
    'focus-visible:border-primary-600 transition-colors',
    invalid ? 'border-danger' : 'border-neutral-400 hover:border-neutral-500',
  ].join(' ');
}
