import type { MiddlewareHandler } from 'astro';
import { PAGE_BUDGET_MS, withBudget } from '../budget.ts';

/**
 * Gives an on-demand request `ms` of upstream time (`../budget.ts`): every connector call made
 * while it is served, by the middleware or the page, shares it, so a dead upstream yields the
 * error page (or a cached copy) within a bound. Pre-rendered pages (the build) are not limited.
 * The API handler opens its own, longer budget.
 */
export function createWithBudget(ms: number = PAGE_BUDGET_MS): MiddlewareHandler {
  return (context, next) => (context.isPrerendered ? next() : withBudget(ms, next));
}
