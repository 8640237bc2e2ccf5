import { describe, expect, test } from 'vitest';
import { completeLock, platformOf } from '../../scripts/lock-platforms.ts';

describe('platformOf: the system a native binding package is for, from its name', () => {
  test.each([
    ['darwin arm64', '@tailwindcss/oxide-darwin-arm64', { os: ['darwin'], cpu: ['arm64'] }],
    ['linux glibc', '@x/binding-linux-x64-gnu', { os: ['linux'], cpu: ['x64'], libc: ['glibc'] }],
    [
      'linux musl',
      '@x/binding-linux-arm64-musl',
      { os: ['linux'], cpu: ['arm64'], libc: ['musl'] },
    ],
    [
      'arm gnueabihf',
      '@x/oxide-linux-arm-gnueabihf',
      { os: ['linux'], cpu: ['arm'], libc: ['glibc'] },
    ],
    ['windows', '@x/binding-win32-x64-msvc', { os: ['win32'], cpu: ['x64'] }],
    ['wasm', '@x/binding-wasm32-wasi', { cpu: ['wasm32'] }],
    ['not a platform package', 'third-party-web', null],
  ])('%s', (_case, name, expected) => {
    expect(platformOf(name)).toEqual(expected);
  });
});

describe('completeLock', () => {
  test('adds missing platform packages beside their parent, root and nested, once', () => {
    const lock = {
      packages: {
        '': { optionalDependencies: {} },
        'node_modules/a': {
          version: '2.0.0',
          optionalDependencies: { 'a-darwin-arm64': '2.0.0', 'a-linux-x64-gnu': '2.0.0' },
        },
        'node_modules/a-linux-x64-gnu': { version: '2.0.0', optional: true },
        'node_modules/b/node_modules/a': {
          version: '1.0.0',
          dev: true,
          optionalDependencies: { 'a-darwin-arm64': '1.0.0' },
        },
      },
    };
    expect(completeLock(lock)).toEqual(['a-darwin-arm64@2.0.0', 'a-darwin-arm64@1.0.0']);
    expect(lock.packages).toMatchObject({
      'node_modules/a-darwin-arm64': { version: '2.0.0', os: ['darwin'], optional: true },
      'node_modules/b/node_modules/a-darwin-arm64': { version: '1.0.0', dev: true },
    });
    expect(completeLock(lock)).toEqual([]);
  });
});
