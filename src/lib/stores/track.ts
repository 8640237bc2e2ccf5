/**
 * The analytics pushes of the scripts every product page runs up front (add to cart, the
 * wishlist hearts, view_item, the tag-manager loader), without the analytics store in the
 * page's first download: `track('trackViewItem', item)` fetches `./analytics.ts` on first use
 * and calls it. Calls keep their order (one promise, its callbacks in call order); the store
 * itself orders them after `user_data` and gates personal data on consent. A store that cannot
 * be fetched (offline, a new release's chunk gone) drops the event with one console line: the
 * shopper's action never waits for analytics.
 */
type AnalyticsStore = typeof import('./analytics.ts');
/** The store's push functions (`trackViewItem`, `userDataReady`...). */
type Push = {
  [K in keyof AnalyticsStore]: AnalyticsStore[K] extends (...args: never[]) => unknown ? K : never;
}[keyof AnalyticsStore];

let store: Promise<AnalyticsStore> | undefined;

/** The analytics store, fetched once. */
export function analyticsStore(): Promise<AnalyticsStore> {
  store ??= import('./analytics.ts');
  return store;
}

/** Calls the store's `push` with `args` once the store is loaded; no-op on the server. */
export function track<K extends Push>(push: K, ...args: Parameters<AnalyticsStore[K]>): void {
  if (typeof window === 'undefined') return;
  analyticsStore().then(
    (loaded) => {
      (loaded[push] as (...values: Parameters<AnalyticsStore[K]>) => unknown)(...args);
    },
    (error: unknown) => {
      console.error(`analytics ${push} not sent:`, error);
    },
  );
}
