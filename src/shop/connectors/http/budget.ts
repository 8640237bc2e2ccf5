/**
 * The time budget of one request's upstream calls: the API handler and the page middleware
 * open one, and every connector call made while serving the request (however deep, through
 * caches and helpers) is cut to what is left of it, so a slow or dead upstream answers the
 * shopper within a bound, never after the sum of per-call timeouts. Outside a budget (the
 * build, scripts) the clients' own timeouts apply.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** Upstream time of an on-demand page read (GET, HEAD): its error page comes within 2 s. */
export const PAGE_BUDGET_MS = 1_500;
/** Upstream time of an API read: its normalised error comes within 3 s. */
export const API_BUDGET_MS = 2_500;
/**
 * Upstream time of a write (an API method that changes state, a form POST): longer, as a write
 * is never retried and one cut short may still have happened upstream (a login's credential
 * check alone is a slow hash), but bounded all the same.
 */
export const WRITE_BUDGET_MS = 6_000;

const deadlines = new AsyncLocalStorage<number>();

/** Runs `run` with `ms` of upstream time from now (replacing any budget it runs within). */
export function withBudget<T>(ms: number, run: () => T): T {
  return deadlines.run(performance.now() + ms, run);
}

/** Milliseconds left of the current budget (0 when spent); undefined outside a budget. */
export function budgetLeft(): number | undefined {
  const deadline = deadlines.getStore();
  return deadline === undefined ? undefined : Math.max(0, deadline - performance.now());
}
