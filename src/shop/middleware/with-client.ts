import type { APIContext, MiddlewareHandler } from 'astro';
import { t } from '../../lib/i18n/index.ts';
import {
  directClient,
  resolveClient,
  SHARED_RENDER_PEER,
  type TrustedProxies,
} from '../auth/client.ts';
import { isCrossSiteSubmission } from '../auth/security.ts';

const API_PREFIX = '/api/';

export interface ClientOptions {
  /** The load balancers whose `X-Forwarded-*` headers are believed (`TRUSTED_PROXIES`). */
  trustedProxies: TrustedProxies;
}

/**
 * First of the sequence (the shop runs behind a proxy): who is asking and over what, as
 * `context.locals.clientInfo` (`ClientInfo`) for everything after it: the API's limits and
 * origin checks, the `Secure` flag of every cookie, HSTS. The peer is Astro's
 * `clientAddress`, the TCP peer (the node adapter believes no `X-Forwarded-For` while
 * `security.allowedDomains` is empty); the forwarded headers count only from a trusted proxy.
 *
 * It is also the one cross-site check of on-demand pages (Astro's `security.checkOrigin` is
 * off: it compares `Origin` with the request URL, which says http behind a TLS proxy): an
 * unsafe-method request another site could have sent is answered 403 (the API's calls are
 * checked by its handler, against the same `ClientInfo.origin`).
 */
export function createWithClient(options: ClientOptions): MiddlewareHandler {
  return (context, next) => {
    const url = new URL(context.request.url);
    // Pre-rendered pages have no visitor (nor request headers) at build time.
    if (context.isPrerendered) {
      context.locals.clientInfo = directClient(url);
      return next();
    }
    const { headers } = context.request;
    const clientInfo = resolveClient(
      {
        remoteAddress: peerAddress(context),
        encrypted: url.protocol === 'https:',
        // The adapter built the URL from `Host`.
        host: url.host,
        forwardedFor: headers.get('x-forwarded-for'),
        forwardedProto: headers.get('x-forwarded-proto'),
        forwardedHost: headers.get('x-forwarded-host'),
      },
      options.trustedProxies,
    );
    context.locals.clientInfo = clientInfo;
    // The API checks its state-changing calls itself, more strictly (same origin and JSON,
    // handle.ts), and answers in its own error shape (spec §8).
    const api = url.pathname.startsWith(API_PREFIX);
    if (!api && isCrossSiteSubmission(context.request, clientInfo.origin)) {
      return new Response(t('error.forbidden'), {
        status: 403,
        headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
      });
    }
    return next();
  };
}

// No peer for a render the server shares, nor when the adapter cannot tell the address (Astro
// throws): limits then skip the address.
function peerAddress(context: APIContext): string {
  try {
    const address = context.clientAddress;
    return address === SHARED_RENDER_PEER ? '' : address;
  } catch {
    return '';
  }
}
