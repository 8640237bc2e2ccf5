/**
 * Mounts the product reviews (`src/islands/reviews/`) when their section comes within 400 px of
 * the viewport, or at once when the page was opened on it (`#avis`).
 */
const box = document.querySelector<HTMLElement>('[data-product-reviews]');
if (box !== null) {
  const mount = () => {
    void import('../../islands/reviews/mount.tsx').then((m) => {
      m.mountProductReviews(box);
    });
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
