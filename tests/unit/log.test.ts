import { afterEach, describe, expect, test, vi } from 'vitest';
import fc from 'fast-check';
import { log, LOG_LEVELS, logLevel, setLogLevel } from '../../src/shop/config/log.ts';
import {
  currentRequestId,
  isWellFormedRequestId,
  requestIdOf,
  runWithRequestId,
} from '../../src/shop/config/request-context.ts';
import { readServeConfig } from '../../src/server/rebuild/config.ts';
import { readEnvironment } from '../../src/shop/config/environment.ts';
import { captureLog, type LogLine } from './helpers/log-lines.ts';

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
  afterEach(() => {
    setLogLevel('error');
  });

  // One row per setting: the message levels written, in order.
  test.each([
    ['error', ['error']],
    ['warn', ['error', 'warn']],
    ['info', ['error', 'warn', 'info']],
    ['debug', ['error', 'warn', 'info', 'debug']],
  ] as const)('LOG_LEVEL=%s writes %j', (setting, written) => {
    setLogLevel(setting);
    const { lines, restore } = captureLog();
    try {
      for (const level of LOG_LEVELS) log[level](`a ${level} line`);
    } finally {
      restore();
    }
    expect(lines.map((line) => `${line.level} ${line.msg}`)).toEqual(
      written.map((level) => `${level} a ${level} line`),
    );
  });
});

describe("the server's logger", () => {
  afterEach(() => {
    setLogLevel('error');
    vi.restoreAllMocks();
  });

  test('starts at error: warnings and below are not written', () => {
    expect(logLevel()).toBe('error');
    const { lines, restore } = captureLog();
    log.error('[api] upstream down');
    log.warn('[storefront] unknown host');
    log.info('[rebuild] building');
    restore();
    expect(lines.map((line) => line.msg)).toEqual(['[api] upstream down']);
  });

  test('one JSON line per message: level label, ISO time, pid, fields, then msg', () => {
    const { lines, restore } = captureLog();
    const err = new Error('connection refused');
    log.error({ err, service: 'bigcommerce' }, '[upstream] call failed');
    restore();
    const [line, ...more]: (LogLine | undefined)[] = lines;
    expect(more).toEqual([]);
    if (line === undefined) throw new Error('no line written');
    expect(Object.keys(line).slice(0, 3)).toEqual(['level', 'time', 'pid']);
    expect(Object.keys(line).at(-1)).toBe('msg');
    expect(line).toMatchObject({ level: 'error', pid: process.pid, service: 'bigcommerce' });
    expect(line.msg).toBe('[upstream] call failed');
    expect(new Date(line.time).toISOString()).toBe(line.time);
    // An error field is written with its type, message and stack.
    expect(line.err).toMatchObject({ type: 'Error', message: 'connection refused' });
    expect((line.err as { stack: string }).stack).toContain('connection refused');
    expect(line).not.toHaveProperty('reqId');
  });

  test("a line written while serving a request carries the request's id", async () => {
    const { lines, restore } = captureLog();
    await runWithRequestId('req-1', async () => {
      log.error('[serve] before a wait');
      await new Promise((resolve) => setImmediate(resolve));
      log.error({ reqId: 'forged' }, '[serve] after a wait');
    });
    log.error('[serve] outside');
    restore();
    expect(lines.map((line) => [line.msg, line.reqId])).toEqual([
      ['[serve] before a wait', 'req-1'],
      // The line's own fields come after the context's: the request's id stays.
      ['[serve] after a wait', 'req-1'],
      ['[serve] outside', undefined],
    ]);
  });

  test('follows the level set at startup', () => {
    setLogLevel('info');
    const { lines, restore } = captureLog();
    log.info('[rebuild] building');
    log.debug('[api] call');
    restore();
    expect(lines.map((line) => `${line.level} ${line.msg}`)).toEqual(['info [rebuild] building']);
  });

  test("the Node server's settings carry LOG_LEVEL (default error)", () => {
    expect(readServeConfig({}).logLevel).toBe('error');
    expect(readServeConfig({ LOG_LEVEL: 'warn' }).logLevel).toBe('warn');
    expect(readServeConfig({ LOG_LEVEL: '' }).logLevel).toBe('error');
  });
});

describe('the request id', () => {
  const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-';
  const wellFormed = fc
    .array(fc.constantFrom(...ID_CHARS.split('')), { minLength: 1, maxLength: 128 })
    .map((chars) => chars.join(''));
  // Any header value at all: strings of any character, blank, too long, repeated headers.
  const anyHeader = fc.oneof(
    fc.string({ maxLength: 200, unit: 'binary' }),
    wellFormed.map(
      (id) => `${id}${fc.sample(fc.constantFrom(' ', '\n', '/', '"', 'é'), 1)[0] ?? ''}`,
    ),
    fc.array(wellFormed, { minLength: 1, maxLength: 3 }),
    fc.constant(undefined),
    fc.constant('a'.repeat(129)),
  );
  const made = () => 'made-here';

  test('a well-formed id from a trusted proxy is taken as it is', () => {
    fc.assert(
      fc.property(wellFormed, (id) => {
        expect(requestIdOf(id, true, made)).toBe(id);
      }),
    );
  });

  test('from anyone else, any value is replaced by a new id', () => {
    fc.assert(
      fc.property(fc.oneof(anyHeader, wellFormed), (header) => {
        expect(requestIdOf(header, false, made)).toBe('made-here');
      }),
    );
  });

  test("a trusted proxy's value is taken only when well formed: 1 to 128 of [A-Za-z0-9._:-]", () => {
    fc.assert(
      fc.property(anyHeader, (header) => {
        const ok = typeof header === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(header);
        expect(isWellFormedRequestId(header)).toBe(ok);
        expect(requestIdOf(header, true, made)).toBe(ok ? header : 'made-here');
      }),
    );
  });

  test('a made id is a random UUID, new each time', () => {
    const a = requestIdOf(undefined, true);
    const b = requestIdOf(undefined, true);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a).not.toBe(b);
  });

  test('is the one of the request being run, through waits, and none outside', async () => {
    expect(currentRequestId()).toBeUndefined();
    const seen = await Promise.all(
      ['a', 'b'].map((id) =>
        runWithRequestId(id, async () => {
          await new Promise((resolve) => setImmediate(resolve));
          return currentRequestId();
        }),
      ),
    );
    expect(seen).toEqual(['a', 'b']);
    expect(currentRequestId()).toBeUndefined();
  });
});
