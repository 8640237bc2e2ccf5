import type { MiddlewareHandler } from 'astro';
import { PAGE_BUDGET_MS, WRITE_BUDGET_MS, withBudget } from '../connectors/http/budget.ts';

/**
 * Gives an on-demand request its upstream time (`../budget.ts`): `readMs` for GET and HEAD,
 * `writeMs` for a form POST. Every connector call made while it is served, by the middleware
 * or the page, shares it, so a dead upstream yields the error page (or a cached copy) within a
 * bound. Pre-rendered pages (the build) are not limited; the API handler opens its own budget.
 */
export function createWithBudget(
  readMs: number = PAGE_BUDGET_MS,
  writeMs: number = WRITE_BUDGET_MS,
): MiddlewareHandler {
  return (context, next) => {
    if (context.isPrerendered) return next();
    const read = context.request.method === 'GET' || context.request.method === 'HEAD';
    return withBudget(read ? readMs : writeMs, next);
  };
}
