/**
 * Registers the service worker (spec §7: `/sw.js`, scope `/`) in production builds, once the
 * page has loaded and the main thread is idle, so it never competes with the page's own work.
 * A failure (no support, private mode) leaves the shop as it is.
 */
import { afterLoadAndIdle } from './after-load.ts';

const register = () => {
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((error: unknown) => {
    console.debug('service worker not registered:', error);
  });
};

if (import.meta.env.PROD && 'serviceWorker' in navigator) afterLoadAndIdle(register);
