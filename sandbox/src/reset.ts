/** `npm run sandbox:reset`: deletes the sandbox data dir and seeds it again. */
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { startSandbox } from './server.ts';

const dataDir = resolve(process.env.SANDBOX_DATA_DIR ?? '.sandbox');
const products = process.env.SANDBOX_PRODUCTS ? Number(process.env.SANDBOX_PRODUCTS) : undefined;
rmSync(dataDir, { recursive: true, force: true });
const started = performance.now();
const sandbox = await startSandbox({ dataDir, ...(products ? { products } : {}) });
console.log(
  `[sandbox] reset ${dataDir}: ${sandbox.seed.products} products in ${Math.round(performance.now() - started)} ms`,
);
await sandbox.close();
