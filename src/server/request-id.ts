/**
 * The request id of a request the server handles (`http-server.ts`): kept on its reply, and
 * held by `src/shop/config/request-context.ts` for the code that runs as the request.
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
 * Gives a request its id: the `X-Request-Id` a trusted proxy sent, when well formed, else a new
 * one. It goes back on the reply whatever answers it (a file, a page, an error: written with its
 * head, `shop-response.ts`), and `asRequestOf` runs the code that may log or call upstream as
 * that request.
 */
export function assignRequestId(
  req: IncomingMessage,
  res: ServerResponse,
  trusted: TrustedProxies,
): string {
  const given = req.headers[REQUEST_ID_HEADER];
  // Only a header that is there needs the peer checked (most requests have none).
  const fromProxy = given !== undefined && trusted.trusts(req.socket.remoteAddress ?? '');
  const id = requestIdOf(given, fromProxy);
  if (res instanceof ShopResponse) res.requestId = id;
  else res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/** The id of the request `res` answers (`assignRequestId`), or undefined when it has none. */
export function requestIdOfReply(res: ServerResponse): string | undefined {
  if (res instanceof ShopResponse) return res.requestId ?? undefined;
  const header = res.getHeader(REQUEST_ID_HEADER);
  return typeof header === 'string' ? header : undefined;
}

/**
 * Runs `run` as the request `res` answers: within it, and in all it starts, `currentRequestId()`
 * answers the request's id, so every log line and upstream call made there carries it. The
 * server enters it only where a request leaves its own code for code that may log or call a
 * service (Astro's handler, the webhooks): a file or a cached reply, which do neither, skip the
 * context's cost (about a tenth of the static page row of `npm run bench:serve`), and the
 * server's own lines for a request name its id themselves (`requestIdOfReply`).
 */
export function asRequestOf<T>(res: ServerResponse, run: () => T): T {
  const id = requestIdOfReply(res);
  return id === undefined ? run() : runWithRequestId(id, run);
}
