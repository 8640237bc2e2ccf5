/** spec §3: the top bar's banner. Pure: the layout data picks it (`server/loaders/layout-data.ts`). */
import type { Banner } from './types.ts';

/** spec §3: among banners marked visible (and not blank), the one with the highest id; else null. */
export function currentBanner(banners: readonly Banner[]): Banner | null {
  let chosen: Banner | null = null;
  for (const banner of banners) {
    if (banner.visible && banner.content.trim() !== '' && (!chosen || banner.id > chosen.id)) {
      chosen = banner;
    }
  }
  return chosen;
}
