/**
 * Fault injection of the sandbox, for tests and demos of a slow, failing or dead upstream:
 * rules set at start (`faults` option, `SANDBOX_FAULTS`) or at run time through
 * `/__sandbox/faults`, each matching requests by path prefix (and method), and adding latency,
 * answering an error status, or behaving like a dead upstream (connection reset, or a request
 * never answered).
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { InvalidBody } from './http.ts';

/** What a dead upstream does: resets the connection, or holds the request unanswered. */
export type DownMode = 'reset' | 'hang';

/** A fault as set by a caller (JSON of the admin endpoint, `SANDBOX_FAULTS`). */
export interface FaultSpec {
  /** Path prefix of the requests affected (`/stores/sandbox/v3/catalog`); default every path. */
  match?: string;
  /** Only this method (GET, POST, PUT, DELETE); default every method. */
  method?: string;
  /** Milliseconds waited before the request is handled (or before its error or its end). */
  latencyMs?: number;
  /** Answer this status (400–599) with the API family's error body instead of handling. */
  status?: number;
  /** Behave like a dead upstream: `true` or 'reset' resets the connection, 'hang' never answers. */
  down?: boolean | DownMode;
  /** Chance (0–1) that a matching request is affected; default 1. */
  probability?: number;
  /** Affect this many matching requests, then the rule goes away; default unlimited. */
  times?: number;
}

/** A validated rule. */
export interface Fault {
  id: number;
  match: string;
  method: string | undefined;
  latencyMs: number;
  status: number | undefined;
  down: DownMode | undefined;
  probability: number;
  /** Requests it still affects (Infinity when unlimited). */
  remaining: number;
}

/** Path of the admin endpoint; never itself affected by a fault. */
export const FAULTS_PATH = '/__sandbox/faults';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'];
const MAX_LATENCY_MS = 600_000;
const FIELDS = new Set(['match', 'method', 'latencyMs', 'status', 'down', 'probability', 'times']);

function isInteger(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/**
 * Validates one fault as given by a caller; throws `InvalidBody` (422) naming every field at
 * fault. A rule must do something: latency, a status or down.
 */
export function parseFault(input: unknown, id: number): Fault {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new InvalidBody('The fault is invalid.', { fault: 'must be an object' });
  }
  const spec = input as Record<string, unknown>;
  const errors: Record<string, string> = {};
  for (const key of Object.keys(spec)) {
    if (!FIELDS.has(key)) errors[key] = 'is not a fault field';
  }
  const { match, method, latencyMs, status, down, probability, times } = spec;
  if (match !== undefined && (typeof match !== 'string' || !match.startsWith('/'))) {
    errors.match = 'must be a path prefix starting with /';
  }
  if (method !== undefined && (typeof method !== 'string' || !METHODS.includes(method))) {
    errors.method = `must be one of ${METHODS.join(', ')}`;
  }
  if (latencyMs !== undefined && !isInteger(latencyMs, 0, MAX_LATENCY_MS)) {
    errors.latencyMs = `must be an integer from 0 to ${MAX_LATENCY_MS}`;
  }
  if (status !== undefined && !isInteger(status, 400, 599)) {
    errors.status = 'must be an integer from 400 to 599';
  }
  if (down !== undefined && typeof down !== 'boolean' && down !== 'reset' && down !== 'hang') {
    errors.down = "must be true, false, 'reset' or 'hang'";
  }
  if (
    probability !== undefined &&
    (typeof probability !== 'number' || !(probability >= 0 && probability <= 1))
  ) {
    errors.probability = 'must be a number from 0 to 1';
  }
  if (times !== undefined && !isInteger(times, 1, Number.MAX_SAFE_INTEGER)) {
    errors.times = 'must be a positive integer';
  }
  const mode: DownMode | undefined =
    down === true || down === 'reset' ? 'reset' : down === 'hang' ? 'hang' : undefined;
  if (Object.keys(errors).length === 0 && !latencyMs && status === undefined && !mode) {
    errors.fault = 'needs latencyMs, status or down';
  }
  if (status !== undefined && mode) errors.status = 'cannot be combined with down';
  if (Object.keys(errors).length > 0) throw new InvalidBody('The fault is invalid.', errors);
  return {
    id,
    match: (match as string | undefined) ?? '/',
    method: method as string | undefined,
    latencyMs: (latencyMs as number | undefined) ?? 0,
    status: status as number | undefined,
    down: mode,
    probability: (probability as number | undefined) ?? 1,
    remaining: (times as number | undefined) ?? Number.POSITIVE_INFINITY,
  };
}

/** The JSON form of a rule (`times` left when limited). */
export function faultView(fault: Fault): Record<string, unknown> {
  return {
    id: fault.id,
    match: fault.match,
    ...(fault.method === undefined ? {} : { method: fault.method }),
    latencyMs: fault.latencyMs,
    ...(fault.status === undefined ? {} : { status: fault.status }),
    ...(fault.down === undefined ? {} : { down: fault.down }),
    probability: fault.probability,
    ...(Number.isFinite(fault.remaining) ? { times: fault.remaining } : {}),
  };
}

/** The rules of one sandbox, newest first, and the requests they hold unanswered. */
export class Faults {
  #rules: Fault[] = [];
  #nextId = 1;
  readonly #held = new Set<ServerResponse>();
  readonly #random: () => number;

  constructor(random: () => number = Math.random) {
    this.#random = random;
  }

  /** Adds validated rules (throws `InvalidBody` on the first invalid one, adding none). */
  add(specs: readonly unknown[]): Fault[] {
    const parsed = specs.map((spec, index) => parseFault(spec, this.#nextId + index));
    this.#nextId += parsed.length;
    this.#rules = [...[...parsed].reverse(), ...this.#rules];
    return parsed;
  }

  list(): Fault[] {
    return [...this.#rules];
  }

  /** Removes one rule (true when it existed), or every rule; held requests are reset. */
  clear(id?: number): boolean {
    const before = this.#rules.length;
    this.#rules = id === undefined ? [] : this.#rules.filter((rule) => rule.id !== id);
    if (this.#rules.every((rule) => rule.down !== 'hang')) this.releaseHeld();
    return this.#rules.length < before;
  }

  /** The rule that affects this request, if any (and counts it against `times`). */
  pick(method: string, path: string): Fault | undefined {
    if (path === FAULTS_PATH || path.startsWith(`${FAULTS_PATH}/`)) return undefined;
    const rule = this.#rules.find(
      (candidate) =>
        path.startsWith(candidate.match) &&
        (candidate.method === undefined || candidate.method === method),
    );
    if (rule === undefined) return undefined;
    if (rule.probability < 1 && this.#random() >= rule.probability) return undefined;
    rule.remaining -= 1;
    if (rule.remaining <= 0) this.#rules = this.#rules.filter((r) => r !== rule);
    return rule;
  }

  /**
   * Plays the dead-upstream part of a rule: a reset destroys the socket at once; a hang keeps
   * the request open, unanswered, until the client gives up, the rule is cleared or the
   * sandbox closes.
   */
  playDown(mode: DownMode, req: IncomingMessage, res: ServerResponse): void {
    if (mode === 'reset') {
      req.socket.resetAndDestroy();
      return;
    }
    this.#held.add(res);
    res.on('close', () => this.#held.delete(res));
  }

  /** Resets every held request (rules cleared, sandbox closing). */
  releaseHeld(): void {
    for (const res of this.#held) res.socket?.resetAndDestroy();
    this.#held.clear();
  }
}

/** Reason phrase of an injected status, for the error body. */
export function faultTitle(status: number): string {
  return `${STATUS_CODES[status] ?? 'Error'} (injected fault)`;
}

/**
 * Rules from `SANDBOX_FAULTS` (one JSON fault or an array of them); empty when unset. Throws a
 * readable error when the variable is not valid JSON; the rules themselves are validated by
 * `startSandbox`, which refuses to start on an invalid one.
 */
export function faultsFromEnv(value: string | undefined): FaultSpec[] {
  if (value === undefined || value.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new Error('SANDBOX_FAULTS must be JSON: a fault object or an array of them');
  }
  return (Array.isArray(parsed) ? parsed : [parsed]) as FaultSpec[];
}
