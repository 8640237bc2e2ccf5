/**
 * Mounts the shop shell's React part (`ShopShell.tsx`) into the layout's `[data-shop-shell]`
 * box, its notifications into the layout's live region. Loaded by `shop-shell-loader.ts` the
 * first time the shell has something to show.
 */
import { createRoot } from 'react-dom/client';
import { ShopShell } from './ShopShell.tsx';

export function mountShopShell(container: HTMLElement, notificationsRegion: HTMLElement): void {
  createRoot(container).render(<ShopShell notificationsRegion={notificationsRegion} />);
}
