/**
 * The server's replies (`http-server.ts` makes every reply one): node's `ServerResponse` with
 * what the serving path notes of its request, kept on the reply rather than in a map or a
 * listener: when it came and its route kind (the request metrics, `metrics.ts`), its request
 * id (`request-id.ts`), and whether the server drains (its head then closes the connection).
 * No closure, map or set per request.
 *
 * The request id goes into the head `writeHead` writes, beside the headers handed to it: a
 * header set ahead with `setHeader` would send every `writeHead` down node's slow path, which
 * copies each header of the reply into the response's own list (an API reply served from the
 * render cache lost about a third of its rate to it, `npm run bench:serve`).
 */
import http, { type OutgoingHttpHeader, type OutgoingHttpHeaders } from 'node:http';
import { REQUEST_ID_HEADER } from '../shop/config/request-context.ts';
import { ROUTE_KINDS } from './route-kind.ts';

/** Index of the route kind `other` in `ROUTE_KINDS`. */
export const OTHER_KIND = ROUTE_KINDS.indexOf('other');

type Head = OutgoingHttpHeaders | OutgoingHttpHeader[];

/** What a server tells its replies (`http-server.ts`). */
export interface Serving {
  draining: boolean;
  /** Closes the server's connections left idle. */
  closeIdle: () => void;
}

export class ShopResponse extends http.ServerResponse {
  /** When the request came (performance.now()). */
  readonly startedAt = performance.now();
  /** Index of its route kind in `ROUTE_KINDS`. */
  routeKind = OTHER_KIND;
  /** Its `X-Request-Id`, written with its head; null: none. */
  requestId: string | null = null;
  /**
   * The server's state (`http-server.ts`): once it drains, a head written from then on says
   * `Connection: close`, so the client reconnects (to another worker or copy).
   */
  serving: Serving | null = null;

  override writeHead(statusCode: number, reason?: string | Head, headers?: Head): this {
    if (this.serving?.draining === true) this.shouldKeepAlive = false;
    const id = this.requestId;
    if (typeof reason === 'string' || reason === undefined) {
      return super.writeHead(statusCode, reason, this.#withId(headers, id));
    }
    return super.writeHead(statusCode, this.#withId(reason, id));
  }

  /** `headers` with the request id, in a new object (header objects may be shared). */
  #withId(headers: Head | undefined, id: string | null): Head | undefined {
    if (id === null || this.hasHeader(REQUEST_ID_HEADER)) return headers;
    if (headers === undefined || Array.isArray(headers)) {
      // No object to add it to: the slow path, rare (node's implicit head, raw lists).
      this.setHeader(REQUEST_ID_HEADER, id);
      return headers;
    }
    return { ...headers, [REQUEST_ID_HEADER]: id };
  }
}
