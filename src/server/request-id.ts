/**
 * The request id of a request the server handles (`http-server.ts`), held for the rest of its
 * handling by `src/shop/config/request-context.ts`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TrustedProxies } from '../shop/auth/client.ts';
import {
  REQUEST_ID_HEADER,
  requestIdOf,
  runWithRequestId,
} from '../shop/config/request-context.ts';
import { ShopResponse } from './shop-response.ts';

/**
 * Runs the handling of a request as its request id (`request-context.ts`): the `X-Request-Id` a
 * trusted proxy sent, when well formed, else a new one. The id goes back on the reply whatever
 * answers it (a file, a page, an error: written with its head, `shop-response.ts`); every
 * log line and upstream call made for the request carries it.
 */
export function withRequestId<T>(
  req: IncomingMessage,
  res: ServerResponse,
  trusted: TrustedProxies,
  run: () => T,
): T {
  const given = req.headers[REQUEST_ID_HEADER];
  // Only a header that is there needs the peer checked (most requests have none).
  const fromProxy = given !== undefined && trusted.trusts(req.socket.remoteAddress ?? '');
  const id = requestIdOf(given, fromProxy);
  if (res instanceof ShopResponse) res.requestId = id;
  else res.setHeader(REQUEST_ID_HEADER, id);
  return runWithRequestId(id, run);
}
