/**
 * The test balancer's thread (`balancer.ts` starts it): its own event loop, so the proxying
 * never competes with the test process's load generator and sandbox. It polls each copy's
 * `GET /readyz` `pollMs` after its last answer (each poll on a connection of its own; no
 * answer within `timeoutMs` counts as not ready, as a balancer's health-check timeout) and sends
 * each request, round robin, to a copy whose last poll answered 200. It never retries: a request
 * a copy fails (a refused or cut connection) is answered 502, and with no ready copy 503. It
 * reports to its parent every change of readiness and, every `pollMs`, its counts.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

/** What the thread tells its parent. */
export type BalancerReport =
  | { type: 'listening'; port: number }
  | { type: 'change'; base: string; ready: boolean; line: string }
  | { type: 'counts'; sent: Record<string, number>; proxied: number; noCopy: number };

/** What the parent starts it with. */
export interface BalancerData {
  bases: string[];
  pollMs: number;
  timeoutMs: number;
}

const { bases, pollMs, timeoutMs } = workerData as BalancerData;
const port = parentPort;
if (port === null) throw new Error('balancer-thread.ts runs as a worker thread');
const report = (message: BalancerReport) => {
  port.postMessage(message);
};

const readiness = new Map<string, boolean>(bases.map((base) => [base, false]));
const sent: Record<string, number> = Object.fromEntries(bases.map((base) => [base, 0]));
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const started = Date.now();
let turn = 0;
let proxied = 0;
let noCopy = 0;
let closed = false;

const poll = (base: string) =>
  new Promise<void>((resolve) => {
    const done = (ready: boolean, why: string) => {
      if (readiness.get(base) !== ready) {
        const state = ready ? 'ready' : 'unready';
        const line = `${String(Date.now() - started)} ms ${base} ${state}: ${why}`;
        report({ type: 'change', base, ready, line });
      }
      readiness.set(base, ready);
      resolve();
    };
    const request = http.get(`${base}/readyz`, { agent: false, timeout: timeoutMs }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => {
        done(response.statusCode === 200, `${String(response.statusCode)} ${body.trim()}`);
      });
      response.on('error', (error) => {
        done(false, error.message);
      });
    });
    request.on('timeout', () => {
      request.destroy(new Error('readyz timed out'));
    });
    request.on('error', (error) => {
      done(false, error.message);
    });
  });

// Each copy on its own: a copy slow to answer never delays the polls of the others.
const pollEach = async (base: string) => {
  while (!closed) {
    await poll(base);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
};
void Promise.all(bases.map(pollEach));
const counts = setInterval(() => {
  report({ type: 'counts', sent: { ...sent }, proxied, noCopy });
}, pollMs);

const forward = (req: IncomingMessage, res: ServerResponse) => {
  const ready = bases.filter((base) => readiness.get(base) === true);
  if (ready.length === 0) {
    noCopy += 1;
    res.writeHead(503).end();
    return;
  }
  turn = (turn + 1) % ready.length;
  const base = ready[turn] ?? '';
  sent[base] = (sent[base] ?? 0) + 1;
  const upstream = http.request(
    new URL(req.url ?? '/', base),
    { method: req.method, headers: req.headers, agent },
    (response) => {
      res.writeHead(response.statusCode ?? 502, response.headers);
      response.pipe(res);
      response.on('error', () => {
        res.destroy();
      });
    },
  );
  upstream.on('error', () => {
    proxied += 1;
    if (res.headersSent) res.destroy();
    else res.writeHead(502).end();
  });
  req.pipe(upstream);
};

const server = http.createServer(forward);
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  report({
    type: 'listening',
    port: typeof address === 'object' && address !== null ? address.port : 0,
  });
});
port.on('message', () => {
  // Any word from the parent: stop.
  closed = true;
  clearInterval(counts);
  report({ type: 'counts', sent: { ...sent }, proxied, noCopy });
  agent.destroy();
  server.closeAllConnections();
  server.close(() => {
    port.close();
  });
});
