import type { ErrorKind } from '../errors.js';
import { ApiError, classifyExchangeCode } from './apiError.js';
import { retryAfterMs } from './backoff.js';
import { parseJsonLossless } from '../normalize/losslessJson.js';
import type { EndpointDef, EndpointName } from './endpoints.js';
import { adviceFor } from './errorAdvice.js';
import type { Envelope } from './records/envelope.js';
import { redactSecrets } from './redactSecrets.js';

/** A failed attempt, before we know whether it is the last one. */
export interface Failure {
  code: string;
  message: string;
  kind: ErrorKind;
  retryable: boolean;
  hint: string;
  exchangeCode?: string | undefined;
  httpStatus?: number | undefined;
  retryAfterMs?: number | undefined;
  cause?: unknown;
}

export type Outcome = { ok: true; envelope: Envelope<unknown>; status: number } | { ok: false; failure: Failure };

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * Turns one HTTP answer into a success envelope or a classified failure. A success needs HTTP
 * 2xx, `code` '00000' AND `msg` 'success' (api-notes: any other msg is a failure). Exchange
 * messages are redacted before they reach an error.
 *
 * @example
 * const o = interpretResponse('marginRecords', endpoints.marginRecords, raw, [secret, passphrase]);
 * if (o.ok) return o.envelope.data;
 */
export function interpretResponse(name: EndpointName, def: EndpointDef, raw: RawResponse, secrets: readonly string[]): Outcome {
  const where = `${name} (${def.id} ${def.method} ${def.path})`;
  const retryAfter = retryAfterMs(raw.headers['retry-after']);
  let body: unknown;
  try {
    body = parseJsonLossless(raw.text, 'exact');
  } catch {
    body = undefined;
  }
  const env = isEnvelope(body) ? body : undefined;
  const code = env === undefined ? undefined : String(env.code);

  if (raw.status === 429 || code === '429') {
    const a = adviceFor('429');
    return fail({ code: 'API_429', message: `${where}: ${a.what}; ${a.fix} (HTTP ${raw.status})`, kind: 'exchange', retryable: true, hint: a.fix, exchangeCode: '429', httpStatus: raw.status, retryAfterMs: retryAfter });
  }
  if (env === undefined || code === undefined) {
    if (raw.status >= 500) {
      const fix = 'the exchange is failing or in maintenance; run again later, the sync resumes where it stopped';
      return fail({ code: `API_HTTP_${raw.status}`, message: `${where}: the exchange answered HTTP ${raw.status} without an envelope; ${fix}`, kind: 'exchange', retryable: true, hint: fix, httpStatus: raw.status });
    }
    const fix = 'this is usually a cut connection or a proxy page; run again, and check the base URL if it persists';
    const what = body === undefined ? 'the answer was not valid JSON' : 'the answer was JSON but not an exchange envelope';
    return fail({ code: 'API_MALFORMED_BODY', message: `${where}: ${what} (HTTP ${raw.status}, ${raw.text.length} bytes); ${fix}`, kind: 'network', retryable: true, hint: fix, httpStatus: raw.status });
  }
  const msg = redactSecrets(String(env.msg), secrets);
  if (code === '00000' && env.msg === 'success' && raw.status >= 200 && raw.status < 300) {
    return { ok: true, envelope: env as Envelope<unknown>, status: raw.status };
  }
  if (code === '00000') {
    const fix = 'the exchange reported success with an unexpected message; if it persists, report it';
    return fail({ code: 'API_NOT_SUCCESS', message: `${where}: code 00000 came with msg "${msg}" (HTTP ${raw.status}), treated as a failure; ${fix}`, kind: 'exchange', retryable: raw.status >= 500, hint: fix, exchangeCode: code, httpStatus: raw.status });
  }
  const { kind, retryable } = classifyExchangeCode(code, raw.status);
  const a = adviceFor(code);
  return fail({ code: `API_${code}`, message: `${where}: ${a.what}; ${a.fix} (exchange code ${code}: "${msg}")`, kind, retryable, hint: a.fix, exchangeCode: code, httpStatus: raw.status, retryAfterMs: retryAfter });
}

/**
 * Builds the error a caller sees from a failed attempt.
 *
 * @example
 * throw toApiError(failure, 'marginRecords', 'E5', 7);
 */
export function toApiError(f: Failure, endpoint: EndpointName, endpointId: string, attempts: number): ApiError {
  const message = attempts > 1 ? `${f.message} (gave up after ${attempts} attempts)` : f.message;
  return new ApiError(f.code, message, {
    endpoint, endpointId, exchangeCode: f.exchangeCode, httpStatus: f.httpStatus,
    retryable: f.retryable, kind: f.kind, hint: f.hint, attempts, cause: f.cause,
  });
}

function fail(failure: Failure): Outcome {
  return { ok: false, failure };
}

function isEnvelope(v: unknown): v is { code: unknown; msg: unknown; requestTime?: unknown; data?: unknown } {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && 'code' in v && 'msg' in v;
}
