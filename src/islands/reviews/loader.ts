/**
 * Mounts the product reviews (`src/islands/reviews/`) when their section comes within 400 px of
 * the viewport, or at once when the page was opened on it (`#avis`).
 */
const box = document.querySelector<HTMLElement>('[data-product-reviews]');
if (box !== null) {
  const mount = async () => {
    // `await` alone around the import, so Vite's preload helper reports a failure (the reload
    // of chunk-reload-listener.ts) before this catch handles it (no uncaught rejection).
    try {
      const m = await import('./mount.tsx');
      m.mountProductReviews(box);
    } catch (error) {
      console.warn('reviews not loaded:', error);
    }
  };
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        observer.disconnect();
        void mount();
      }
    },
    { rootMargin: '400px 0px' },
  );
  observer.observe(box);
}
