/**
 * Runs `task` once the page has loaded and the main thread is idle (at most 5 s after the load
 * event), so that work nobody waits for (the service worker, the tag-manager container) never
 * competes with the page's own: Lighthouse measures the page, not them.
 */
export function afterLoadAndIdle(task: () => void): void {
  const whenIdle = () => {
    if ('requestIdleCallback' in window) requestIdleCallback(task, { timeout: 5_000 });
    else setTimeout(task, 1_000);
  };
  if (document.readyState === 'complete') whenIdle();
  else addEventListener('load', whenIdle, { once: true });
}
