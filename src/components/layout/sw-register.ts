/**
 * Registers the service worker (spec §7: `/sw.js`, scope `/`) in production builds, once the
 * page has loaded and the main thread is idle, so it never competes with the page's own work.
 * A failure (no support, private mode) leaves the shop as it is.
 */
const register = () => {
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((error: unknown) => {
    console.debug('service worker not registered:', error);
  });
};

const whenIdle = (task: () => void) => {
  if ('requestIdleCallback' in window) requestIdleCallback(task, { timeout: 5_000 });
  else setTimeout(task, 1_000);
};

if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  if (document.readyState === 'complete') whenIdle(register);
  else
    addEventListener(
      'load',
      () => {
        whenIdle(register);
      },
      { once: true },
    );
}
