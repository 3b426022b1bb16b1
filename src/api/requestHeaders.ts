import type { EndpointDef } from './endpoints.js';
import { preHash, sign } from './sign.js';

export interface SigningKey {
  apiKey: string;
  secretKey: string;
  passphrase: string;
  demo: boolean;
}

/**
 * The headers of one request. Signed endpoints get ACCESS-KEY/SIGN/TIMESTAMP/PASSPHRASE over
 * `timestamp + METHOD + path + ("?" + query) + body`, and `paptrading: 1` for a demo key;
 * public endpoints carry no key material at all.
 *
 * @example
 * requestHeaders(endpoints.deposits, 'coin=BTC', '', { locale: 'en-US', key, timestampMs: Date.now() })
 */
export function requestHeaders(def: EndpointDef, signedQuery: string, bodyText: string, o: { locale: string; key: SigningKey | undefined; timestampMs: number }): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', locale: o.locale };
  if (!def.signed || o.key === undefined) return headers;
  const ts = String(Math.round(o.timestampMs));
  headers['access-key'] = o.key.apiKey;
  headers['access-sign'] = sign(o.key.secretKey, preHash(ts, def.method, def.path, signedQuery, bodyText));
  headers['access-timestamp'] = ts;
  headers['access-passphrase'] = o.key.passphrase;
  if (o.key.demo) headers.paptrading = '1';
  return headers;
}
