import { createHash, generateKeyPairSync } from 'node:crypto';
import type { Permission } from '../../api/endpoints.js';
import type { SandboxKey } from '../world.js';

const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function digest(seed: number, ...parts: string[]): Buffer {
  return createHash('sha256').update([String(seed), ...parts].join('|')).digest();
}

/**
 * A fake API key derived from the seed: same seed and salt, same key. The passphrase is 16
 * letters and digits (the spec's 8-32 rule), always holding both.
 *
 * @example
 * const k = fakeKey(1, '2000000001', 0, ['read'], [], 'read-only');
 */
export function fakeKey(seed: number, uid: string, n: number, perms: Permission[], ipList: string[], label: string): SandboxKey {
  const k = digest(seed, 'key', uid, String(n));
  const s = digest(seed, 'secret', uid, String(n));
  const p = digest(seed, 'pass', uid, String(n));
  const letters = [...p.subarray(0, 14)].map((b) => alnum[b % 52]).join('');
  const digits = [...p.subarray(14, 16)].map((b) => String(b % 10)).join('');
  return {
    apiKey: `bg_${k.toString('hex').slice(0, 32)}`,
    secretKey: s.toString('hex'),
    passphrase: `${letters}${digits}`,
    perms: [...perms],
    ipList: [...ipList],
    label,
  };
}

/**
 * Eight English letters derived from the seed: a valid subAccountName.
 *
 * @example
 * fakeLetters(1, 'sub1'); // 'qwertyui'
 */
export function fakeLetters(seed: number, ...parts: string[]): string {
  return [...digest(seed, 'name', ...parts).subarray(0, 8)].map((b) => alnum[b % 26]!.toLowerCase()).join('');
}

// One RSA key pair per seed and process: generating one takes ~85 ms, and node cannot derive it
// from the seed, so unlike every other sandbox key it differs between processes.
const rsaPairs = new Map<number, { publicKey: string; privateKey: string }>();

/**
 * A fake RSA API key: key name and passphrase derived from the seed as in fakeKey, the secret a
 * PEM private key (see SandboxKey.rsaPublicKey).
 *
 * @example
 * const k = fakeRsaKey(1, '2000000001', 3, ['read'], 'rsa-read-only');
 */
export function fakeRsaKey(seed: number, uid: string, n: number, perms: Permission[], label: string): SandboxKey {
  let pair = rsaPairs.get(seed);
  if (pair === undefined) {
    pair = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
    rsaPairs.set(seed, pair);
  }
  return { ...fakeKey(seed, uid, n, perms, [], label), secretKey: pair.privateKey, rsaPublicKey: pair.publicKey };
}
