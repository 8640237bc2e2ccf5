export const prerender = false;

import type { APIRoute } from 'astro';
import { handleApiCall } from '../../../shop/api/handle.ts';
import { apiServices } from '../../../shop/api/services.ts';

/**
 * spec §7 middleware: `POST /api/{service}/{method}`, body = JSON array of the arguments,
 * reply `{ data }` or `{ message, statusCode }`. Every verb lands here so that the handler
 * answers the others 405 (Astro would answer 404). The client (address for the limits,
 * public origin for the origin check, scheme for `Secure`) is the client middleware's.
 */
export const ALL: APIRoute = (context) =>
  handleApiCall(
    context.request,
    { service: context.params.service ?? '', method: context.params.method ?? '' },
    apiServices,
    { clientInfo: context.locals.clientInfo },
  );
