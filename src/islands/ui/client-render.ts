/**
 * Whether this render may show browser-only state (React error #418 on the
 * favourites page): false on the server and during hydration, so a hydrated island's first
 * render matches the server's HTML; true at once in a root React mounts in the browser (the
 * shell's sidebars), and right after hydration (React renders again with the browser's value).
 * What the stores know only in the browser (the `authenticated` marker, the guest's favourites
 * kept in `localStorage`) is shown from then on.
 */
import { useSyncExternalStore } from 'react';

const subscribe = () => () => undefined;

export function useClientRender(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
