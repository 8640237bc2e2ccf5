import { afterEach, describe, expect, test, vi } from 'vitest';
import {
  createLogger,
  isLogged,
  log,
  LOG_LEVELS,
  logLevel,
  setLogLevel,
  type LogLevel,
  type LogSink,
} from '../../src/shop/config/log.ts';
import { readServeConfig } from '../../src/server/rebuild/config.ts';
import { readEnvironment } from '../../src/shop/config/environment.ts';

/** `LOG_LEVEL` as the one table of the environment reads it (the server and Astro alike). */
const parseLogLevel = (value: string | undefined) =>
  readEnvironment(['LOG_LEVEL'], { LOG_LEVEL: value }).LOG_LEVEL;

describe('parseLogLevel (spec §9: default log verbosity error)', () => {
  test.each([
    ['unset: error', undefined, 'error'],
    ['empty: error', '', 'error'],
    ['blank: error', '  ', 'error'],
    ['error', 'error', 'error'],
    ['warn', 'warn', 'warn'],
    ['info', 'info', 'info'],
    ['debug', 'debug', 'debug'],
    ['spaces around the level', ' debug ', 'debug'],
  ] as const)('%s', (_case, value, expected) => {
    expect(parseLogLevel(value)).toBe(expected);
  });

  // Capitals are refused, as Astro's schema refuses them.
  test.each(['verbose', 'trace', '0', 'errors', 'DEBUG'])(
    '%j is refused, naming the setting',
    (value) => {
      expect(() => parseLogLevel(value)).toThrow(
        /LOG_LEVEL must be one of error, warn, info, debug/,
      );
    },
  );
});

describe('which lines each setting writes', () => {
  // One row per setting: the message levels written, in order.
  test.each([
    ['error', ['error']],
    ['warn', ['error', 'warn']],
    ['info', ['error', 'warn', 'info']],
    ['debug', ['error', 'warn', 'info', 'debug']],
  ] as const)('LOG_LEVEL=%s writes %j', (setting, written) => {
    expect(LOG_LEVELS.filter((message) => isLogged(setting, message))).toEqual(written);
    const lines: string[] = [];
    const sink: LogSink = {
      error: (line: string) => lines.push(`error ${line}`),
      warn: (line: string) => lines.push(`warn ${line}`),
      info: (line: string) => lines.push(`info ${line}`),
      debug: (line: string) => lines.push(`debug ${line}`),
    };
    const logger = createLogger(() => setting, sink);
    for (const level of LOG_LEVELS) logger[level](`a ${level} line`);
    expect(lines).toEqual(written.map((level: LogLevel) => `${level} a ${level} line`));
  });
});

describe("the server's logger", () => {
  afterEach(() => {
    setLogLevel('error');
    vi.restoreAllMocks();
  });

  test('starts at error: warnings and below are not written', () => {
    expect(logLevel()).toBe('error');
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    log.error('[api] upstream down');
    log.warn('[storefront] unknown host');
    log.info('[rebuild] building');
    expect(error).toHaveBeenCalledExactlyOnceWith('[api] upstream down');
    expect(warn).not.toHaveBeenCalled();
    expect(info).not.toHaveBeenCalled();
  });

  test('follows the level set at startup', () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    setLogLevel('info');
    log.info('[rebuild] building');
    log.debug('[api] call');
    expect(info).toHaveBeenCalledExactlyOnceWith('[rebuild] building');
    expect(debug).not.toHaveBeenCalled();
  });

  test("the Node server's settings carry LOG_LEVEL (default error)", () => {
    expect(readServeConfig({}).logLevel).toBe('error');
    expect(readServeConfig({ LOG_LEVEL: 'warn' }).logLevel).toBe('warn');
    expect(readServeConfig({ LOG_LEVEL: '' }).logLevel).toBe('error');
  });
});
