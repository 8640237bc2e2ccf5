/**
 * The last good copy of content-service data (src/shop/loaders/last-good.ts): a good read
 * is saved and returned; a failed read returns the saved copy (logged on one line); with no copy
 * the failure says so; a half-written copy is never read.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, test, vi } from 'vitest';
import { lastGoodCopy } from '../../src/shop/loaders/last-good.ts';

const dir = () => mkdtempSync(path.join(tmpdir(), 'last-good-'));

afterEach(() => {
  vi.restoreAllMocks();
});

test('a good read is saved, then used when the service fails', async () => {
  const where = dir();
  const value = { main: [{ key: 'a' }], note: 'ééé' };
  expect(await lastGoodCopy('navigations', () => Promise.resolve(value), where)).toEqual(value);
  expect(readdirSync(where)).toEqual(['navigations.json']);
  const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const copy = await lastGoodCopy(
    'navigations',
    () => Promise.reject(new Error('AccessTokenInvalid\nforged line')),
    where,
  );
  expect(copy).toEqual(value);
  expect(log).toHaveBeenCalledTimes(1);
  const line = String(log.mock.calls[0]?.[0]);
  expect(line).toContain('using the last good copy of');
  expect(line).not.toContain('\n');
});

test('no copy: the failure explains itself', async () => {
  await expect(
    lastGoodCopy('site-content', () => Promise.reject(new Error('ECONNREFUSED')), dir()),
  ).rejects.toThrow(/content service could not be read \(ECONNREFUSED\) and no earlier copy/);
});

test('an unreadable copy counts as none; a new good read replaces it', async () => {
  const where = dir();
  writeFileSync(path.join(where, 'navigations.json'), '{"savedAt":"x","value":');
  await expect(
    lastGoodCopy('navigations', () => Promise.reject(new Error('down')), where),
  ).rejects.toThrow(/no earlier copy/);
  await lastGoodCopy('navigations', () => Promise.resolve([1]), where);
  const saved = JSON.parse(readFileSync(path.join(where, 'navigations.json'), 'utf8')) as {
    value: unknown;
  };
  expect(saved.value).toEqual([1]);
  expect(readdirSync(where)).toEqual(['navigations.json']);
});

test('names are plain: no path escapes the directory', async () => {
  await expect(lastGoodCopy('../x', () => Promise.resolve(1), dir())).rejects.toThrow(
    /not a plain name/,
  );
});
