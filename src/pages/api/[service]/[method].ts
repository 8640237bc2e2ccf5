export const prerender = false;

import type { APIRoute } from 'astro';
import { handleApiCall } from '../../../lib/server/api/handle.ts';
import { apiServices } from '../../../lib/server/api/services.ts';

/**
 * spec §7 middleware: `POST /api/{service}/{method}`, body = JSON array of the arguments,
 * reply `{ data }` or `{ message, statusCode }`. Every verb lands here so that the handler
 * answers the others 405 (Astro would answer 404).
 */
export const ALL: APIRoute = ({ request, params }) =>
  handleApiCall(
    request,
    { service: params.service ?? '', method: params.method ?? '' },
    apiServices,
  );
