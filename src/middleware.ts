/**
 * Astro's middleware entry: the shop's handlers, in order, are put together in
 * `src/shop/middleware/on-request.ts` (the handlers' README says what each does).
 */
export { onRequest } from './shop/middleware/on-request.ts';
