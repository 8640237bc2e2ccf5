/**
 * Respellings Astro's router takes for one route (tried on a build): for the property
 * tests of `commerce/page-path.ts` (unit) and of the built server (tests/scale/flags.test.ts).
 */
import fc from 'fast-check';

const escapeChar = (c: string) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

/** One respelling step of a path. */
export const respelling: fc.Arbitrary<(path: string) => string> = fc.oneof(
  fc.constant((p: string) => `${p}.html`),
  fc.constant((p: string) => `${p}/index.html`),
  fc.constant((p: string) => `${p}/.html`),
  fc.constant((p: string) => `${p}/`),
  fc.constant((p: string) => `/${p}`),
  fc.constant((p: string) => p.replace('/', '//')),
  fc.constant((p: string) => `/x/..${p}`),
  fc.constant((p: string) => `/.${p}`),
  fc.constant((p: string) => `/\\${p.slice(1)}`),
  fc.constant((p: string) => p.replace('.', '%2e')),
  fc.constant((p: string) => p.replaceAll('%', '%25')),
  fc.integer({ min: 1, max: 40 }).map((at) => (p: string) => {
    const i = at % p.length;
    const c = p.charAt(i);
    return /[a-z]/i.test(c) ? p.slice(0, i) + escapeChar(c) + p.slice(i + 1) : p;
  }),
);

/** A path respelled by one to `max` steps. */
export function respelled(path: string, max = 6): fc.Arbitrary<string> {
  return fc
    .array(respelling, { minLength: 1, maxLength: max })
    .map((steps) => steps.reduce<string>((spelled, step) => step(spelled), path));
}
