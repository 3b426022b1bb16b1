import { Agent, request } from 'undici';
import { canonicalQuery, preHash, sign } from '../../src/api/sign.js';

/** The credentials a test signs with (a line of the sandbox's account list fits). */
export interface TestKey {
  apiKey: string;
  secretKey: string;
  passphrase: string;
  demo?: boolean;
}

export interface SignedCall {
  method?: 'GET' | 'POST';
  /** Sorted into the canonical query string; or pass `rawQuery` to send (and sign) it verbatim. */
  query?: Record<string, string | undefined>;
  rawQuery?: string;
  body?: unknown;
  /** Header values to override or (with undefined) remove after signing. */
  headers?: Record<string, string | undefined>;
  /** Sign with this timestamp instead of the local clock. */
  timestamp?: string;
  /** Change the request after signing: (query, body) -> what is actually sent. */
  tamper?: (sent: { query: string; body: string }) => { query: string; body: string };
}

export interface CallResult {
  status: number;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: { code: string; msg: string; requestTime: number; data: any } | undefined;
}

const agent = new Agent({ keepAliveTimeout: 10_000, connections: 8 });

/**
 * A small signed HTTP client for sandbox tests (independent of src/api/client): signs with
 * src/api/sign.ts, sends over a keep-alive undici agent, and returns status, text and JSON.
 *
 * @example
 * const r = await call(baseUrl, key, '/api/v2/tax/margin-record', { query: { startTime, endTime } });
 * expect(r.json?.code).toBe('00000');
 */
export async function call(baseUrl: string, key: TestKey | null, path: string, options: SignedCall = {}): Promise<CallResult> {
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  let query = options.rawQuery ?? canonicalQuery(options.query ?? {});
  let body = options.body === undefined ? '' : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  const headers: Record<string, string> = { 'content-type': 'application/json', locale: 'en-US' };
  if (key) {
    const timestamp = options.timestamp ?? String(Date.now());
    headers['access-key'] = key.apiKey;
    headers['access-timestamp'] = timestamp;
    headers['access-passphrase'] = key.passphrase;
    headers['access-sign'] = sign(key.secretKey, preHash(timestamp, method, path, decodeURIComponent(query), body));
    if (key.demo) headers.paptrading = '1';
  }
  if (options.tamper) ({ query, body } = options.tamper({ query, body }));
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value === undefined) delete headers[name.toLowerCase()];
    else headers[name.toLowerCase()] = value;
  }
  const res = await request(`${baseUrl}${path}${query ? `?${query}` : ''}`, { method, headers, body: method === 'POST' ? body : null, dispatcher: agent });
  const text = await res.body.text();
  let json: CallResult['json'];
  try {
    json = JSON.parse(text) as CallResult['json'];
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, text, json };
}
