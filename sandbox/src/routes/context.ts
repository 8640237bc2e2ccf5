import type { IncomingHttpHeaders } from 'node:http';
import type { DatabaseSync } from 'node:sqlite';
import type { Query } from '../http.ts';
import type { Webhooks } from '../webhooks.ts';

/** Settings of a running sandbox that handlers need. */
export interface SandboxConfig {
  storeHash: string;
  token: string;
  /** BigCommerce app client id (the `iss` of customer login JWTs). */
  clientId: string;
  /** Other apps of the store (their own token and client id). */
  apps: readonly { token: string; clientId: string }[];
  /** BigCommerce app client secret (signs customer login JWTs). */
  clientSecret: string;
  /** Brevo `api-key`. */
  brevoKey: string;
  /** Delay between reading and writing a cart (emulates upstream's racing cart writes). */
  cartWriteLatencyMs: number;
  /** Storefront sessions of the hosted pages: session token -> customer id. */
  sessions: Map<string, number>;
  /** Outgoing webhooks (BigCommerce store hooks, Contentful webhooks) and their delivery log. */
  webhooks: Webhooks;
}

/** What a route handler receives. */
export interface RouteContext {
  db: DatabaseSync;
  query: Query;
  /** Path parameters, e.g. `{ id: '101' }`. */
  params: Record<string, string>;
  /** Origin of the sandbox as the client reached it (`http://127.0.0.1:4010`). */
  origin: string;
  storeHash: string;
  method: string;
  /** Parsed JSON body (POST/PUT), undefined without one. */
  body: unknown;
  /** Raw body text (form posts of the hosted pages). */
  rawBody: string;
  headers: IncomingHttpHeaders;
  config: SandboxConfig;
  /** The client id of the app whose `X-Auth-Token` the request carries. */
  app: string;
}
