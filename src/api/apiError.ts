import { TradeledgerError } from '../errors.js';
import type { ErrorKind } from '../errors.js';
import type { EndpointName } from './endpoints.js';
import { errorCodes } from './errorCodes.js';
import type { ErrorCode } from './errorCodes.js';

/**
 * Exchange codes that mean "your key, passphrase, clock, IP or environment is wrong": the whole
 * 40001-40012 block (header, key, timestamp and signature checks) plus these.
 */
const authCodes = new Set(['40014', '40018', '40037', '40038', '40099']);

function isAuthCode(code: string): boolean {
  return authCodes.has(code) || (/^400(0[1-9]|1[0-2])$/.test(code));
}

export interface ApiErrorFields {
  endpoint: EndpointName;
  endpointId: string;
  /** The envelope's `code` ('429' for HTTP 429); undefined when no envelope came back. */
  exchangeCode?: string | undefined;
  httpStatus?: number | undefined;
  retryable: boolean;
  kind: ErrorKind;
  hint?: string | undefined;
  /** Attempts made, including the failed one. */
  attempts?: number;
  cause?: unknown;
}

/**
 * A failed exchange request. `code` is stable for scripts: `API_<exchange code>` (API_40012),
 * `API_HTTP_<status>`, `API_NETWORK`, `API_TIMEOUT`, `API_MALFORMED_BODY` or `API_NOT_SUCCESS`.
 * It never carries a header, secret or passphrase.
 *
 * @example
 * try { await client.request('marginRecords', q); }
 * catch (e) { if (e instanceof ApiError && e.kind === 'auth') return exitCodes.configOrAuth; throw e; }
 */
export class ApiError extends TradeledgerError {
  readonly endpoint: EndpointName;
  readonly endpointId: string;
  readonly exchangeCode: string | undefined;
  readonly httpStatus: number | undefined;
  readonly attempts: number;

  constructor(code: string, message: string, f: ApiErrorFields) {
    super(code, message, {
      hint: f.hint, retryable: f.retryable, kind: f.kind, cause: f.cause,
      details: { endpoint: f.endpoint, endpointId: f.endpointId, exchangeCode: f.exchangeCode, httpStatus: f.httpStatus, attempts: f.attempts ?? 1 },
    });
    this.name = 'ApiError';
    this.endpoint = f.endpoint;
    this.endpointId = f.endpointId;
    this.exchangeCode = f.exchangeCode;
    this.httpStatus = f.httpStatus;
    this.attempts = f.attempts ?? 1;
  }
}

/**
 * How the exchange code classifies: auth codes are 'auth', everything else 'exchange'; the
 * retry column of the error table decides `retryable`, and unknown codes are retryable only on
 * a 5xx.
 *
 * @example
 * classifyExchangeCode('40012', 400) // { kind: 'auth', retryable: false }
 */
export function classifyExchangeCode(code: string, httpStatus: number): { kind: ErrorKind; retryable: boolean } {
  const info = (errorCodes as Record<string, { retry: string } | undefined>)[code as ErrorCode];
  const retryable = info === undefined ? httpStatus >= 500 : info.retry === 'yes' || info.retry === 'after-pause';
  return { kind: isAuthCode(code) ? 'auth' : 'exchange', retryable };
}
