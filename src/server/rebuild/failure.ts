/**
 * Why a build or a publish failed, said so an operator can act on it, and whether trying again
 * later may succeed. A build (scripts/lib/astro-build-child.ts) and a kept build's publish
 * (src/server/publish/publisher-loop.ts) describe their failure with `describeFailure`; the build prints
 * it as one `BUILD_FAILURE {json}` line of its log, which the supervisor reads back
 * (`builder.ts`, `readFailureLine`) instead of a stack line.
 *
 * - The cause: the messages of the error and of its causes (`fetch failed: Headers Timeout
 *   Error`), each once, with the failing upstream call (`BigCommerce GET v3/catalog/products
 *   answered 503`) or URL (`https://cdn.example/a.jpg`, without its query or user), on one line.
 *   Secrets are removed: every value of an environment variable named like a token, a secret, a
 *   key or a password, and every URL's query string and credentials.
 * - Transient: an upstream that answered 5xx or 429, a timeout (the upstream client's `TIMEOUT`,
 *   undici's connect, headers and body timeouts, an `AbortSignal.timeout`), a connection that
 *   failed or was reset. A reply the shop's schema refuses, a 404, a bad value (a name too long
 *   for a file) are not: they fail again until the data changes.
 */
import * as z from 'zod';
import { oneLine } from '../../shop/faults/failures.ts';
import { redactor } from '../../shop/connectors/http/upstream-error.ts';

export interface FailureCause {
  /** One line, secrets removed. */
  message: string;
  /** Trying again later may succeed (an upstream 5xx, a timeout, a lost connection). */
  transient: boolean;
}

/** The prefix of the line a failed build prints its cause on. */
export const FAILURE_LINE = 'BUILD_FAILURE ';

const MAX_MESSAGE = 1_000;
const MAX_DEPTH = 8;

/** Error codes of Node and undici that say the connection, not the data, failed. */
const TRANSIENT_CODES = new Set([
  'TIMEOUT',
  'NETWORK_ERROR',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
]);

/** Upstream codes that are the data's fault, whatever the status says. */
const PERMANENT_CODES = new Set(['INVALID_RESPONSE']);

/** A status in a message (Astro's picture fetch: `(received 503)`). */
const STATUS_IN_MESSAGE = /\b(?:received|answered|status(?: code)?)[ :]+(5\d\d|429)\b/i;

/** Names of environment variables whose values never appear in a message. */
const SECRET_NAME = /TOKEN|SECRET|PASSWORD|PASSPHRASE|API_?KEY|_KEY$|CREDENTIAL|AUTH/i;

/** The secret values of `env` (4 characters or more). */
export function secretsOf(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(env)
    .filter(([name, value]) => SECRET_NAME.test(name) && value !== undefined && value.length >= 4)
    .map(([, value]) => value ?? '')
    .sort((a, b) => b.length - a.length);
}

/** URLs without their credentials, query and fragment. */
function withoutUrlSecrets(text: string): string {
  return text.replace(/\b([a-z][a-z\d+.-]*:\/\/)(?:[^\s/@]*@)?([^\s?#]*)(?:[?#]\S*)?/gi, '$1$2');
}

const field = (value: unknown, name: string): unknown =>
  typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[name]
    : undefined;

/** Whether one error of the chain says the failure may pass. */
function isTransient(error: unknown, message: string): boolean {
  const code = field(error, 'code');
  if (typeof code === 'string' && PERMANENT_CODES.has(code)) return false;
  if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return true;
  const status = field(error, 'status');
  if (typeof status === 'number' && (status >= 500 || status === 429)) return true;
  const name = field(error, 'name');
  if (name === 'TimeoutError') return true;
  return STATUS_IN_MESSAGE.test(message);
}

/** The error and its causes, outermost first (a cycle or a deep chain is cut). */
function chain(error: unknown): unknown[] {
  const seen: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && seen.length < MAX_DEPTH) {
    if (seen.includes(current)) break;
    seen.push(current);
    const errors = field(current, 'errors');
    // An AggregateError (a connection tried on several addresses): its first error.
    current =
      field(current, 'cause') ?? (Array.isArray(errors) ? (errors[0] as unknown) : undefined);
  }
  return seen;
}

/** What failed, on one line without secrets, and whether it may pass (module comment). */
export function describeFailure(
  error: unknown,
  env: Readonly<Record<string, string | undefined>> = process.env,
): FailureCause {
  const redact = redactor(secretsOf(env));
  const parts: string[] = [];
  let transient = false;
  let permanent = false;
  for (const each of chain(error)) {
    const raw =
      each instanceof Error ? each.message : typeof each === 'string' ? each : JSON.stringify(each);
    const message = oneLine(raw).trim();
    const code = field(each, 'code');
    const endpoint = field(each, 'endpoint');
    const url = field(each, 'url');
    let part = message;
    if (typeof endpoint === 'string' && endpoint !== '' && !part.includes(endpoint)) {
      part += ` [${endpoint}]`;
    }
    if (typeof url === 'string' && url !== '' && !part.includes(url)) part += ` [${url}]`;
    const status = field(each, 'status');
    const said = [
      typeof code === 'string' && code !== '' && !part.includes(code) ? code : '',
      typeof status === 'number' && !part.includes(String(status)) ? String(status) : '',
    ].filter((word) => word !== '');
    if (said.length > 0) part += ` (${said.join(' ')})`;
    if (part !== '' && !parts.some((kept) => kept.includes(message))) parts.push(part);
    if (typeof code === 'string' && PERMANENT_CODES.has(code)) permanent = true;
    if (isTransient(each, message)) transient = true;
  }
  const text = withoutUrlSecrets(redact(parts.join(': '))) || 'unknown error';
  return {
    message: text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE - 1)}…` : text,
    transient: transient && !permanent,
  };
}

/** The line a failed build prints its cause on. */
export function failureLine(cause: FailureCause): string {
  return `${FAILURE_LINE}${JSON.stringify(cause)}`;
}

const causeSchema = z.object({
  message: z.string().max(MAX_MESSAGE * 2),
  transient: z.boolean(),
});

/** The last `BUILD_FAILURE` line of a build's output, read back (null: none, or not one). */
export function readFailureLine(output: string): FailureCause | null {
  const lines = output.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = (lines[i] ?? '').trim();
    const at = line.indexOf(FAILURE_LINE);
    if (at === -1) continue;
    try {
      const parsed = causeSchema.safeParse(JSON.parse(line.slice(at + FAILURE_LINE.length)));
      return parsed.success ? { ...parsed.data, message: oneLine(parsed.data.message) } : null;
    } catch {
      return null;
    }
  }
  return null;
}
