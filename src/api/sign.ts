import { createHmac } from 'node:crypto';

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
 * HMAC-SHA256 over the pre-hash string, keyed by the API secret, base64 encoded.
 *
 * @example
 * const sig = sign(secret, preHash(ts, 'POST', path, '', JSON.stringify(body)));
 */
export function sign(secret: string, message: string): string {
  return createHmac('sha256', secret).update(message).digest('base64');
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
