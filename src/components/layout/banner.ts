import type { Banner } from '../../lib/commerce/types.ts';

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
