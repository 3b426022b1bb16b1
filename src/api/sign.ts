import { createHmac, createPrivateKey, sign as rsaSign } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

/**
 * The pre-hash string of api-notes.md: timestamp + METHOD + requestPath + ("?" + query) + body.
 * `query` is the already-sorted, percent-decoded query string without the leading "?".
 *
 * @example
 * preHash('1700000000000', 'GET', '/api/v2/tax/margin-record', 'endTime=2&startTime=1', '')
 */
export function preHash(timestamp: string, method: string, requestPath: string, query: string, body: string): string {
  return timestamp + method.toUpperCase() + requestPath + (query ? `?${query}` : '') + body;
}

/**
 * Signs the pre-hash string, base64 encoded: HMAC-SHA256 keyed by the API secret, or, for an RSA
 * API key (the secret is then the PEM private key, "-----BEGIN PRIVATE KEY-----..."),
 * SHA256withRSA as api-notes.md describes. Check a secret with `secretProblem` first: an
 * unreadable PEM throws here.
 *
 * @example
 * const sig = sign(secret, preHash(ts, 'POST', path, '', JSON.stringify(body)));
 */
export function sign(secret: string, message: string): string {
  if (isPemKey(secret)) return rsaSign('sha256', Buffer.from(message, 'utf8'), privateKey(secret)).toString('base64');
  return createHmac('sha256', secret).update(message).digest('base64');
}

/** True for a secret that is a PEM private key (an RSA API key) rather than an HMAC secret. */
export function isPemKey(secret: string): boolean {
  return secret.trimStart().startsWith('-----BEGIN');
}

/**
 * Why a secret cannot sign, without ever quoting it; undefined when it can. An HMAC secret always
 * can; a PEM one must be an RSA private key node can read.
 *
 * @example
 * secretProblem('-----BEGIN PRIVATE KEY-----\nnot base64\n-----END PRIVATE KEY-----') // 'the PEM private key cannot be read (...)'
 */
export function secretProblem(secret: string): string | undefined {
  if (!isPemKey(secret)) return undefined;
  try {
    const key = privateKey(secret);
    if (key.asymmetricKeyType !== 'rsa') return `the PEM private key is ${key.asymmetricKeyType ?? 'not an asymmetric'} key; the exchange signs with RSA`;
    return undefined;
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    return `the PEM private key cannot be read (${typeof code === 'string' ? code : 'unreadable key'})`;
  }
}

// A parsed key per secret: parsing a PEM costs far more than one signature.
const keys = new Map<string, KeyObject>();
function privateKey(pem: string): KeyObject {
  let key = keys.get(pem);
  if (key === undefined) {
    key = createPrivateKey(pem);
    keys.set(pem, key);
  }
  return key;
}

/**
 * Builds the query string the way clients send it and servers verify it: keys sorted, values
 * as given. Undefined and empty values are dropped.
 *
 * @example
 * canonicalQuery({ startTime: '1', coin: 'BTC' }) // 'coin=BTC&startTime=1'
 */
export function canonicalQuery(params: Record<string, string | undefined>): string {
  return Object.keys(params)
    .filter((k) => params[k] !== undefined && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&');
}
