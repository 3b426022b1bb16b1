import { canonicalQuery } from './sign.js';

/**
 * The query string for the wire and the one to sign: the same keys in the same sorted order,
 * percent-encoded on the wire and decoded in the signature, as the exchange verifies it
 * (api-notes: the server checks the decoded query; spot symbols may contain `$`).
 *
 * @example
 * wireQuery({ symbol: 'A$B', limit: '5' }) // { signed: 'limit=5&symbol=A$B', wire: 'limit=5&symbol=A%24B' }
 */
export function wireQuery(params: Record<string, string | undefined>): { signed: string; wire: string } {
  const wire = Object.keys(params)
    .filter((k) => params[k] !== undefined && params[k] !== '')
    .sort()
    .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(params[k] as string)}`)
    .join('&');
  return { signed: canonicalQuery(params), wire };
}
