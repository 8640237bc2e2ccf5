/**
 * The running sandbox's state and its own endpoints, beside the emulated APIs: the admin of
 * fault injection and the webhook delivery log, and the playing of an injected fault.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DatabaseSync } from 'node:sqlite';
import type { ContentfulConfig } from './contentful-store.ts';
import { FAULTS_PATH, faultTitle, faultView, Faults, type Fault } from './faults.ts';
import { readBody, InvalidBody, json, noContent, v3Error, type Reply } from './http.ts';
import type { SandboxConfig } from './routes/context.ts';
import { familyError, familyOf } from './route-table.ts';

export interface ServerState {
  db: DatabaseSync;
  config: SandboxConfig;
  imagesDir: string;
  faults: Faults;
  contentful: ContentfulConfig;
}

/**
 * The admin endpoint of fault injection (same `X-Auth-Token` as the API): GET lists the rules,
 * POST adds one rule or an array of them (201 with the rules as stored), DELETE removes every
 * rule, DELETE `/{id}` one.
 */
export async function faultsAdmin(
  req: IncomingMessage,
  state: ServerState,
  path: string,
): Promise<Reply> {
  if (req.headers['x-auth-token'] !== state.config.token) {
    return v3Error(401, 'No valid credentials were found in this request.');
  }
  const rest = path.slice(FAULTS_PATH.length);
  const method = req.method ?? 'GET';
  if (rest === '' || rest === '/') {
    if (method === 'GET' || method === 'HEAD') {
      return json(200, { data: state.faults.list().map(faultView) });
    }
    if (method === 'DELETE') {
      state.faults.clear();
      return noContent();
    }
    if (method === 'POST') {
      const raw = await readBody(req);
      if (raw === undefined) return v3Error(413, 'The request body is too large.');
      let body: unknown;
      try {
        body = JSON.parse(raw) as unknown;
      } catch {
        return v3Error(400, 'The request body is not valid JSON.');
      }
      try {
        const added = state.faults.add(Array.isArray(body) ? body : [body]);
        return json(201, { data: added.map(faultView) });
      } catch (caught) {
        if (caught instanceof InvalidBody) return v3Error(422, caught.message, caught.errors);
        throw caught;
      }
    }
    return { ...v3Error(405, 'Method Not Allowed'), headers: { Allow: 'GET, POST, DELETE' } };
  }
  const id = /^\/(\d{1,9})$/.exec(rest)?.[1];
  if (id === undefined) return v3Error(404, 'The requested resource was not found.');
  if (method !== 'DELETE') {
    return { ...v3Error(405, 'Method Not Allowed'), headers: { Allow: 'DELETE' } };
  }
  return state.faults.clear(Number(id))
    ? noContent()
    : v3Error(404, 'The requested resource was not found.');
}

export const DELIVERIES_PATH = '/__sandbox/webhook-deliveries';

/**
 * The webhook delivery log (tests): GET lists it (`?source=contentful|bigcommerce`), DELETE
 * clears it. Takes the API's `X-Auth-Token` or the Contentful management bearer token.
 */
export function deliveriesAdmin(req: IncomingMessage, state: ServerState, url: URL): Reply {
  if (
    req.headers['x-auth-token'] !== state.config.token &&
    req.headers.authorization !== `Bearer ${state.contentful.managementToken}`
  ) {
    return v3Error(401, 'No valid credentials were found in this request.');
  }
  if (req.method === 'DELETE') {
    state.config.webhooks.clear();
    return noContent();
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return { ...v3Error(405, 'Method Not Allowed'), headers: { Allow: 'GET, DELETE' } };
  }
  const source = url.searchParams.get('source');
  const list = state.config.webhooks.list(
    source === 'contentful' || source === 'bigcommerce' ? source : undefined,
  );
  return json(200, { data: list });
}

/**
 * Plays a fault: its latency, then a dead upstream (the reply never comes), an injected error,
 * or the normal reply. A request whose client left during the latency is not handled.
 */
export async function faulted(
  fault: Fault,
  req: IncomingMessage,
  res: ServerResponse,
  state: ServerState,
  path: string,
  answer: () => Promise<Reply>,
): Promise<Reply | undefined> {
  if (fault.latencyMs > 0) await new Promise((ok) => setTimeout(ok, fault.latencyMs));
  if (res.destroyed || req.socket.destroyed) return undefined;
  if (fault.down !== undefined) {
    state.faults.playDown(fault.down, req, res);
    return undefined;
  }
  if (fault.status !== undefined)
    return familyError(familyOf(path), fault.status, faultTitle(fault.status));
  return answer();
}
