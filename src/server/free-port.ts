/**
 * A TCP port free now on `host`: the system's choice for port 0, read and released. The
 * supervisor resolves its workers' port with it (workers must all listen with the same
 * arguments: the cluster shares one socket per address and port); the tests and benches
 * give it to the servers they start.
 */
import { createServer } from 'node:net';

export function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => {
        resolve(port);
      });
    });
  });
}
