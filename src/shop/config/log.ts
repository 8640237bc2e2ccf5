/**
 * The server's one logger (spec §9 "Default log verbosity: error"), pino writing one JSON line
 * per message: `level` (`error`, `warn`, `info`, `debug`), `time` (ISO 8601), `pid`, `reqId`
 * (the request being served, `request-context.ts`, when there is one), the line's fields, then
 * `msg`. A warning or an error has a stable message and its values as fields:
 * `log.warn({ err, service }, '[store] ...')`; `docs/operating.md` lists every one.
 *
 * A line is written only when its level is within the configured `LOG_LEVEL` (error < warn <
 * info < debug). The Astro server reads the setting through `config.ts`, the Node server and its
 * supervisor through `src/server/serve.ts` (`readServeConfig`); both call `setLogLevel` once at
 * startup. Until then, `error` only. The setting's rule and default: the one table of the
 * environment (`src/shop/config/environment.ts`, which Astro's schema is generated from).
 *
 * The server script and the SSR bundle each hold their own copy of this module: the one pino
 * instance lives on `globalThis` under a registered symbol, so both write through it (one
 * level, one destination).
 */
import { pino, stdTimeFunctions, type DestinationStream, type Logger as Pino } from 'pino';
import { currentRequestId } from './request-context.ts';

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const DEFAULT_LOG_LEVEL: LogLevel = 'error';

/** Values of a line (`err`: an Error, written with its type, message and stack). */
export type LogFields = Record<string, unknown>;

/** A level's method: a message alone, or its fields then the message. */
export interface LogMethod {
  (message: string): void;
  (fields: LogFields, message: string): void;
}

export interface Logger {
  error: LogMethod;
  warn: LogMethod;
  info: LogMethod;
  debug: LogMethod;
}

/** Where the lines go: one `write` per JSON line (default: the process's stdout). */
export type LogDestination = DestinationStream;

/** A pino logger of this shop's line shape, writing to `destination` at `level`. */
function createPino(level: LogLevel, destination: LogDestination): Pino {
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => {
        const reqId = currentRequestId();
        return reqId === undefined ? {} : { reqId };
      },
      // The request's id wins over a field of the same name: a line cannot pass for another's.
      mixinMergeStrategy: (fields, context) => ({ ...fields, ...context }),
    },
    destination,
  );
}

function wrap(current: () => Pino): Logger {
  const at =
    (name: LogLevel): LogMethod =>
    (first: LogFields | string, message?: string): void => {
      if (typeof first === 'string') current()[name](first);
      else current()[name](first, message);
    };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}

const SLOT = Symbol.for('literie.log');

interface Shared {
  pino: Pino;
}

function shared(): Shared {
  const holder = globalThis as { [SLOT]?: Shared };
  holder[SLOT] ??= { pino: createPino(DEFAULT_LOG_LEVEL, pino.destination(1)) };
  return holder[SLOT];
}

/** Sets the process's level (startup, from the configured `LOG_LEVEL`). */
export function setLogLevel(level: LogLevel): void {
  shared().pino.level = level;
}

/** The process's level. */
export function logLevel(): LogLevel {
  return shared().pino.level as LogLevel;
}

/**
 * Sends the process's lines to `destination` from now on, at the current level; returns a
 * function that puts the previous destination back.
 * @internal the tests' seam: they read what a request logged.
 */
export function useLogDestination(destination: LogDestination): () => void {
  const state = shared();
  const previous = state.pino;
  state.pino = createPino(logLevel(), destination);
  return () => {
    previous.level = state.pino.level;
    state.pino = previous;
  };
}

/** The shop server's logger: every line of `src/shop`, `src/server` and the server scripts. */
export const log: Logger = wrap(() => shared().pino);
