/** Mounts the product reviews island into its section's box (`reviews-loader.ts`). */
import { createRoot } from 'react-dom/client';
import { createTranslator, parseMessages } from '../../lib/i18n/translate.ts';
import { ProductReviews } from './ProductReviews.tsx';

export function mountProductReviews(box: HTMLElement): void {
  const productId = Number(box.dataset.productId);
  if (!Number.isSafeInteger(productId) || productId <= 0 || box.dataset.mounted === 'true') return;
  box.dataset.mounted = 'true';
  const expected = Number(box.dataset.expected);
  const t = createTranslator(parseMessages(box.dataset.messages));
  createRoot(box).render(
    <ProductReviews
      productId={productId}
      expected={Number.isSafeInteger(expected) && expected > 0 ? expected : 0}
      t={t}
    />,
  );
}
