/**
 * A small load balancer for the tests, as an operator's would use the shop's probes: it polls
 * each copy's `GET /readyz` every `pollMs` (each poll on a connection of its own, 500 ms at most)
 * and sends each request, round robin, to a copy whose last poll answered 200. It never retries:
 * a request a copy fails (a refused or cut connection) is answered 502, and with no ready copy
 * 503, so every failure shows in the load's figures.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';

export interface TestBalancer {
  url: string;
  /** Whether the balancer's last poll of `base` said ready. */
  ready(base: string): boolean;
  /** Requests sent to `base` so far. */
  sent(base: string): number;
  /** Each change of a copy's readiness as the balancer saw it: when, which, why. */
  changes(): string[];
  /** Requests answered 502 (a copy failed them) and 503 (no copy ready). */
  failures(): { proxied: number; noCopy: number };
  close(): Promise<void>;
}

/** Starts a balancer over `bases` (`http://127.0.0.1:PORT` of each copy). */
export async function startBalancer(bases: string[], pollMs = 100): Promise<TestBalancer> {
  const readiness = new Map<string, boolean>(bases.map((base) => [base, false]));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const sentTo = new Map<string, number>();
  const started = Date.now();
  const changes: string[] = [];
  let turn = 0;
  let proxied = 0;
  let noCopy = 0;
  let closed = false;

  const poll = (base: string) =>
    new Promise<void>((resolve) => {
      const done = (ready: boolean, why: string) => {
        if (readiness.get(base) !== ready) {
          changes.push(
            `${String(Date.now() - started)} ms ${base} ${ready ? 'ready' : 'unready'}: ${why}`,
          );
        }
        readiness.set(base, ready);
        resolve();
      };
      const request = http.get(`${base}/readyz`, { agent: false, timeout: 500 }, (response) => {
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
  const pollAll = async () => {
    while (!closed) {
      await Promise.all(bases.map(poll));
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  };
  const polling = pollAll();

  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const ready = bases.filter((base) => readiness.get(base) === true);
    if (ready.length === 0) {
      noCopy += 1;
      res.writeHead(503).end();
      return;
    }
    turn = (turn + 1) % ready.length;
    const base = ready[turn] ?? '';
    sentTo.set(base, (sentTo.get(base) ?? 0) + 1);
    const target = new URL(req.url ?? '/', base);
    const upstream = http.request(
      target,
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    ready: (base) => readiness.get(base) === true,
    sent: (base) => sentTo.get(base) ?? 0,
    changes: () => [...changes],
    failures: () => ({ proxied, noCopy }),
    close: async () => {
      closed = true;
      await polling;
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
    },
  };
}
