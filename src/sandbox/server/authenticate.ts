import { timingSafeEqual, verify } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { preHash, sign } from '../../api/sign.js';
import type { SandboxAccount, SandboxKey, World } from '../world.js';
import { ApiFailure } from './ApiFailure.js';

export interface SignedRequest {
  headers: IncomingHttpHeaders;
  method: string;
  path: string;
  /** The query string exactly as received, without "?". */
  rawQuery: string;
  body: string;
  remoteIp: string;
}

/** How far ACCESS-TIMESTAMP may be from the server clock (api-notes.md). */
export const timestampToleranceMs = 30_000;

/**
 * Checks a private request as the exchange does, in this order, each with its real code:
 * ACCESS-KEY missing 40001, ACCESS-SIGN missing 40002, ACCESS-TIMESTAMP missing 40003 (our
 * documented choice; the code table's text for 40003 is used as-is), ACCESS-PASSPHRASE missing
 * 40011, timestamp not a number 40005, more than 30 s from the server clock 40008, unknown key
 * 40006, wrong passphrase 40012, bad signature 40009, IP not whitelisted 40018, and the demo
 * header not matching the key 40099. The signature is verified over the percent-decoded query
 * exactly as the client sent it, sorted or not.
 *
 * @example
 * const { account, key } = authenticate(world, request, serverNow);
 */
export function authenticate(world: World, req: SignedRequest, serverNow: number): { account: SandboxAccount; key: SandboxKey } {
  const apiKey = header(req.headers, 'access-key');
  const signature = header(req.headers, 'access-sign');
  const timestamp = header(req.headers, 'access-timestamp');
  const passphrase = header(req.headers, 'access-passphrase');
  if (apiKey === undefined) throw ApiFailure.of('40001');
  if (signature === undefined) throw ApiFailure.of('40002');
  if (timestamp === undefined) throw ApiFailure.of('40003');
  if (passphrase === undefined) throw ApiFailure.of('40011');
  if (!/^\d{1,15}$/.test(timestamp)) throw ApiFailure.of('40005');
  if (Math.abs(Number(timestamp) - serverNow) > timestampToleranceMs) throw ApiFailure.of('40008');
  const owner = world.keyOwner(apiKey);
  if (!owner) throw ApiFailure.of('40006');
  if (!equalText(owner.key.passphrase, passphrase)) throw ApiFailure.of('40012');
  const message = preHash(timestamp, req.method, req.path, decodeQuery(req.rawQuery), req.body);
  const valid = owner.key.rsaPublicKey !== undefined
    ? verifyRsa(owner.key.rsaPublicKey, message, signature)
    : equalText(sign(owner.key.secretKey, message), signature);
  if (!valid) throw ApiFailure.of('40009');
  if (owner.key.ipList.length > 0 && !owner.key.ipList.includes(plainIp(req.remoteIp))) throw ApiFailure.of('40018');
  const paptrading = header(req.headers, 'paptrading') === '1';
  if (owner.account.demo !== paptrading) throw ApiFailure.of('40099');
  return owner;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  const text = Array.isArray(v) ? v[0] : v;
  return text === undefined || text === '' ? undefined : text;
}

function decodeQuery(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function equalText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** "::ffff:127.0.0.1" and "127.0.0.1" are the same client. */
export function plainIp(ip: string): string {
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}

// SHA256withRSA over the pre-hash string, the signature base64 (api-notes.md); a signature that
// is not even base64 of the right length simply fails.
function verifyRsa(publicKey: string, message: string, signature: string): boolean {
  try {
    return verify('sha256', Buffer.from(message, 'utf8'), publicKey, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}
