/**
 * CSS background of a colour swatch: one colour fills it, two or more split it in equal hard
 * stops. Only hex colours are used (they come from upstream data into a style attribute).
 */
const HEX = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

export function swatchBackground(colors: readonly string[]): string {
  const safe = colors.map((c) => c.trim()).filter((c) => HEX.test(c));
  if (safe.length === 0) return 'var(--color-neutral-200)';
  if (safe.length === 1) return safe[0] ?? '';
  const step = 100 / safe.length;
  const stops = safe.map((c, i) => `${c} ${i * step}% ${(i + 1) * step}%`);
  return `linear-gradient(135deg, ${stops.join(', ')})`;
}
