/**
 * `client:linked`, the product page's picker's hydration (linked-directive.ts): at once when
 * the page's link names a variant (`?variante=ID`, a card of a listing filtered on a size or
 * colour), so the page opens on that variant and its price on every screen; else when the
 * picker comes into view, as `client:visible` (no React on a phone's first screen).
 */
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';

declare module 'astro' {
  interface AstroClientDirectives {
    'client:linked'?: boolean;
  }
}

export function linkedVariantDirective(): AstroIntegration {
  return {
    name: 'client-linked',
    hooks: {
      'astro:config:setup': ({ addClientDirective }) => {
        addClientDirective({
          name: 'linked',
          entrypoint: fileURLToPath(new URL('./linked-directive.ts', import.meta.url)),
        });
      },
    },
  };
}
