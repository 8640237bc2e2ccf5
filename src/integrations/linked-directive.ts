/**
 * The `client:linked` directive (linked-variant.ts), run in the browser by Astro's island
 * runtime: hydrates the island at once when the URL names a variant (`?variante=`), else once
 * one of its elements is in view (Astro's `client:visible`).
 */
import type { ClientDirective } from 'astro';
import { VARIANT_PARAM } from '../lib/commerce/variant-link.ts';

const linked: ClientDirective = (load, _options, el) => {
  const hydrate = async () => {
    const run = await load();
    await run();
  };
  if (new URLSearchParams(window.location.search).has(VARIANT_PARAM)) {
    void hydrate();
    return;
  }
  const observer = new IntersectionObserver((entries) => {
    if (!entries.some((entry) => entry.isIntersecting)) return;
    observer.disconnect();
    void hydrate();
  });
  for (const child of el.children) observer.observe(child);
};

export default linked;
