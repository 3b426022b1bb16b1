import type { EndpointDef, EndpointName } from './endpoints.js';
import type { Failure } from './interpretResponse.js';
import { redactSecrets } from './redactSecrets.js';

/**
 * The failure for a request that got no HTTP answer: a timeout or a broken connection. Both are
 * retryable. The cause is a fresh, redacted copy, because the original error may hold request
 * options and none of it may leak a secret.
 *
 * @example
 * return transportFailure('deposits', endpoints.deposits, err, { timedOut, timeoutMs, origin, secrets });
 */
export function transportFailure(name: EndpointName, def: EndpointDef, e: unknown, o: { timedOut: boolean; timeoutMs: number; origin: string; secrets: readonly string[]; proxy?: string }): Failure {
  const err = e instanceof Error ? e : new Error(String(e));
  const code = (err as { code?: unknown }).code;
  const isTimeout = o.timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
  const cause = new Error(redactSecrets(err.message, o.secrets));
  cause.name = err.name;
  if (typeof code === 'string') Object.assign(cause, { code });
  const where = `${name} (${def.id} ${def.method} ${def.path})`;
  const fix = o.proxy === undefined
    ? `check the network and the base URL (${o.origin}), then run again; the sync resumes where it stopped`
    : `check the network, the proxy (${o.proxy}, from HTTPS_PROXY or HTTP_PROXY; NO_PROXY to go around it) and the base URL (${o.origin}), then run again; the sync resumes where it stopped`;
  return isTimeout
    ? { code: 'API_TIMEOUT', message: `${where}: no answer within ${o.timeoutMs} ms; ${fix}`, kind: 'network', retryable: true, hint: fix, cause }
    : { code: 'API_NETWORK', message: `${where}: the connection failed (${cause.message}); ${fix}`, kind: 'network', retryable: true, hint: fix, cause };
}
