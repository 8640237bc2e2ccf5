/**
 * Mounts the product reviews (`src/islands/reviews/`) when their section comes within 400 px of
 * the viewport, or at once when the page was opened on it (`#avis`).
 */
const box = document.querySelector<HTMLElement>('[data-product-reviews]');
if (box !== null) {
  const mount = () => {
    import('../../islands/reviews/mount.tsx').then(
      (m) => {
        m.mountProductReviews(box);
      },
      (error: unknown) => {
        // A chunk gone with a new release: the page reloads once (chunk-reload-listener.ts).
        console.warn('reviews not loaded:', error);
      },
    );
  };
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        observer.disconnect();
        mount();
      }
    },
    { rootMargin: '400px 0px' },
  );
  observer.observe(box);
}
