/**
 * The server's one logger (spec §9 "Default log verbosity: error"): four levels, a message
 * written only when its level is within the configured `LOG_LEVEL` (error < warn < info <
 * debug). The Astro server reads the setting through `config.ts`, the Node server and its
 * supervisor through `src/server/serve.ts` (`readServeConfig`); both call `setLogLevel` once at
 * startup. Until then, `error` only. The setting's rule and default: the one table of the
 * environment (`src/shop/config/environment.ts`, which Astro's schema is generated from).
 */

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const DEFAULT_LOG_LEVEL: LogLevel = 'error';

/** Whether a message of level `message` is written when the setting is `setting`. */
export function isLogged(setting: LogLevel, message: LogLevel): boolean {
  return LOG_LEVELS.indexOf(message) <= LOG_LEVELS.indexOf(setting);
}

export interface Logger {
  error: (...args: unknown[]) => void;
  warn: (...args: unknown[]) => void;
  info: (...args: unknown[]) => void;
  debug: (...args: unknown[]) => void;
}

/** Where the lines go: errors and warnings to stderr, the rest to stdout (the console's). */
export type LogSink = Pick<Console, 'error' | 'warn' | 'info' | 'debug'>;

/** A logger writing to `sink` what `level()` lets through at the time of each call. */
export function createLogger(level: () => LogLevel, sink: LogSink = console): Logger {
  const at =
    (name: LogLevel) =>
    (...args: unknown[]): void => {
      if (isLogged(level(), name)) sink[name](...args);
    };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}

let current: LogLevel = DEFAULT_LOG_LEVEL;

/** Sets the process's level (startup, from the configured `LOG_LEVEL`). */
export function setLogLevel(level: LogLevel): void {
  current = level;
}

/** The process's level. */
export function logLevel(): LogLevel {
  return current;
}

/** The shop server's logger: every line of `src/shop`, `src/server` and the server scripts. */
export const log: Logger = createLogger(() => current);
