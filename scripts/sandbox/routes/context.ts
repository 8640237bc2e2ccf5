import type { DatabaseSync } from 'node:sqlite';
import type { Query } from '../http.ts';

/** What a route handler receives. */
export interface RouteContext {
  db: DatabaseSync;
  query: Query;
  /** Path parameters, e.g. `{ id: '101' }`. */
  params: Record<string, string>;
  /** Origin of the sandbox as the client reached it (`http://127.0.0.1:4010`). */
  origin: string;
  storeHash: string;
}
