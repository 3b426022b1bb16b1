import type { EndpointName } from './endpoints.js';

/**
 * What the client reports for progress bars and JSON logs. Events never carry headers, keys,
 * secrets or passphrases; `message` is redacted.
 *
 * - `request`: one HTTP exchange finished with a success envelope (`ms` = round trip).
 * - `retry`: a failed attempt will be retried after `ms`.
 * - `rate-wait`: the caller waited `ms` for its rate budget.
 * - `rate-limited`: the server answered 429; the budget pauses for `ms`.
 * - `error`: the request failed for good (`ms` = total time spent).
 */
export interface ClientEvent {
  type: 'request' | 'retry' | 'rate-wait' | 'rate-limited' | 'error';
  endpoint: EndpointName;
  endpointId: string;
  ms: number;
  attempt: number;
  httpStatus?: number;
  exchangeCode?: string;
  message?: string;
}
