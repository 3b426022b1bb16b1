import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { ScryptOptions } from 'node:crypto';

// N = 2^15, r = 8, p = 1: OWASP's scrypt minimum is 2^17 with r 8 at p 1 for ~64 MB; 2^15 keeps a
// login near 100 ms on a 2-core machine while the cost stays in the stored string, so it can be
// raised later without breaking old hashes.
const defaults = { N: 2 ** 15, r: 8, p: 1 };
const keyLength = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyLength, { ...options, maxmem: 256 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/**
 * Hashes a password with scrypt and a random salt; the result names its own parameters.
 *
 * @example
 * const stored = await hashPassword('correct horse'); // 'scrypt$32768$8$1$...$...'
 */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, defaults);
  return ['scrypt', defaults.N, defaults.r, defaults.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/**
 * Checks a password against a stored hash in constant time. A malformed hash never matches.
 *
 * @example
 * if (await verifyPassword(typed, user.password_hash)) { ... }
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  const salt = Buffer.from(parts[4]!, 'base64');
  const expected = Buffer.from(parts[5]!, 'base64');
  if (!Number.isInteger(N) || expected.length !== keyLength) return false;
  const key = await derive(password, salt, { N, r, p });
  return timingSafeEqual(key, expected);
}

/** A hash of a random password, compared against when the user does not exist so timing matches. */
export const dummyPasswordHash = hashPassword(randomBytes(16).toString('hex'));
