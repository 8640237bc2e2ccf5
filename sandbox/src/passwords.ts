/**
 * Customer passwords: scrypt at OWASP's parameters (N=2^17, r=8, p=1), 16-byte random salt,
 * 32-byte key, stored as `scrypt$N$r$p$salt$hash` (base64). The async scrypt runs on the
 * libuv pool, so hashing (about 0.3 s) does not block the server.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const N = 2 ** 17;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
/** 128 * N * r bytes = 128 MiB are needed; Node's default maxmem is 32 MiB. */
const MAXMEM = 256 * 1024 * 1024;

function derive(
  password: string,
  salt: Buffer,
  options: ScryptOptions,
  length: number,
): Promise<Buffer> {
  return new Promise((ok, fail) => {
    scrypt(password.normalize('NFC'), salt, length, options, (error, key) => {
      if (error) fail(error);
      else ok(key);
    });
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, { N, r: R, p: P, maxmem: MAXMEM }, KEY_LENGTH);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Constant-time check of a password against a stored hash; false for malformed hashes. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  const salt = Buffer.from(parts[4] ?? '', 'base64');
  const expected = Buffer.from(parts[5] ?? '', 'base64');
  if (
    !Number.isInteger(n) ||
    !Number.isInteger(r) ||
    !Number.isInteger(p) ||
    expected.length === 0
  ) {
    return false;
  }
  const key = await derive(password, salt, { N: n, r, p, maxmem: MAXMEM }, expected.length);
  return timingSafeEqual(key, expected);
}
