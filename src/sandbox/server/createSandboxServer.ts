import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { errorMessage } from '../../api/errorCodes.js';
import { WorldError, type SandboxAccount, type SandboxKey, type World } from '../world.js';
import { ApiFailure } from './ApiFailure.js';
import { RateLimiter } from './RateLimiter.js';
import { IpLimiter } from './IpLimiter.js';
import type { RequestContext } from './RequestContext.js';
import { RequestParams } from './RequestParams.js';
import type { SandboxState } from './SandboxState.js';
import { SandboxStats } from './SandboxStats.js';
import { authenticate, plainIp } from './authenticate.js';
import { handleControl } from './handleControl.js';
import { routeTable, type Route } from './routes/routeTable.js';
import { errorBody, sendJson } from './sendJson.js';
import { withUnknownField } from './withUnknownField.js';
import { checkPermission } from './checkPermission.js';
import { readBody } from './readBody.js';
import { sendAnswer, sendServerError } from './sendAnswer.js';

/**
 * The sandbox's HTTP server (node:http, keep-alive): routes every endpoint of the shared table,
 * checks signatures, permissions and per-UID rate limits, injects faults, and serves the
 * /_sandbox/ test controls. It is not listening yet; `startSandbox` does that.
 *
 * @example
 * const { server, stats } = createSandboxServer(world, state);
 * server.listen(0, '127.0.0.1');
 */
export function createSandboxServer(world: World, state: SandboxState): { server: Server; stats: SandboxStats } {
  const routes = routeTable();
  const limiter = new RateLimiter();
  const ipLimiter = new IpLimiter(state.ipRatePerMinute, state.ipLockoutMs);
  const stats = new SandboxStats();
  const server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
    const started = performance.now();
    serve(req, res).catch((err: unknown) => {
      process.stderr.write(`sandbox: internal error on ${req.method} ${req.url?.split('?')[0]}: ${err instanceof Error ? err.stack : String(err)}\n`);
      if (!res.headersSent) sendJson(res, 500, errorBody('45001', errorMessage('45001'), serverNow()));
      else res.destroy();
    }).finally(() => {
      if (state.logRequests) process.stderr.write(`sandbox: ${req.method} ${req.url?.split('?')[0]} ${res.statusCode} ${(performance.now() - started).toFixed(1)}ms\n`);
    });
  });

  function serverNow(): number {
    return world.now() + state.skewMs;
  }

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const rawQuery = q < 0 ? '' : url.slice(q + 1);
    let body: string;
    try {
      body = await readBody(req);
    } catch (err) {
      if (err instanceof ApiFailure) return sendJson(res, err.httpStatus, errorBody(err.code, err.message, serverNow()));
      throw err;
    }
    if (path.startsWith('/_sandbox/')) return handleControl(req, res, path, rawQuery, body, { world, state, stats });
    const route = routes.get(path);
    if (!route || route.endpoint.method !== req.method) {
      const hint = route ? ` (use ${route.endpoint.method})` : '';
      return sendJson(res, 404, errorBody('40404', `Request URL NOT FOUND: ${req.method} ${path}${hint}`, serverNow()));
    }
    const fault = state.faults.decide(`${req.method} ${url} ${body} ${String(req.headers['access-key'] ?? '')}`);
    if (fault.delayMs > 0) await sleep(fault.delayMs);
    if (fault.failure === '5xx') return sendServerError(res, fault.status, serverNow());
    if (fault.failure === '429') return send429(res, serverNow());
    const now = serverNow();
    let uid = '-';
    let counted = false;
    try {
      let caller: SandboxAccount | null = null;
      let key: SandboxKey | null = null;
      if (route.endpoint.signed) {
        ({ account: caller, key } = authenticate(world, { headers: req.headers, method: req.method ?? 'GET', path, rawQuery, body, remoteIp: req.socket.remoteAddress ?? '' }, now));
        uid = caller.uid;
        checkPermission(route.endpoint, key);
      } else {
        uid = `ip:${plainIp(req.socket.remoteAddress ?? '')}`;
      }
      const signedAtMs = route.endpoint.signed ? Number(req.headers['access-timestamp']) : undefined;
      const at = state.rateClock?.({ signedAtMs }) ?? performance.now();
      // The address's overall limit first: a request it refuses spends no UID token.
      const limited = state.rateLimit && (!ipLimiter.take(plainIp(req.socket.remoteAddress ?? ''), at) || !limiter.take(`${uid}|${route.endpoint.id}`, rateOf(route, caller), at));
      stats.count(route.endpoint.id, uid, limited);
      counted = true;
      if (limited) return send429(res, now);
      const data = route.handler(contextOf(route, req, rawQuery, body, now, caller, key));
      sendAnswer(req, res, fault, JSON.stringify({ code: '00000', msg: 'success', requestTime: now, data: fault.unknownField ? withUnknownField(data) : data }));
    } catch (err) {
      if (!counted) stats.count(route.endpoint.id, uid, false);
      if (err instanceof ApiFailure || err instanceof WorldError) return sendJson(res, err.httpStatus, errorBody(err.code, err.message, now));
      throw err;
    }
  }

  /** The envelope api-notes.md documents; a Retry-After header only when a test set one. */
  function send429(res: ServerResponse, requestTime: number): void {
    if (state.retryAfterSeconds !== null) res.setHeader('retry-after', String(state.retryAfterSeconds));
    sendJson(res, 429, errorBody('429', errorMessage('429'), requestTime));
  }

  function contextOf(route: Route, req: IncomingMessage, rawQuery: string, body: string, now: number, caller: SandboxAccount | null, key: SandboxKey | null): RequestContext {
    let parsed: unknown = undefined;
    let params: RequestParams;
    if (req.method === 'POST') {
      try {
        parsed = body === '' ? {} : JSON.parse(body);
      } catch {
        throw ApiFailure.of('40017', 'the body is not valid JSON');
      }
      params = RequestParams.fromObject(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {});
    } else {
      params = RequestParams.fromQuery(rawQuery);
    }
    const stamp = req.headers['access-timestamp'];
    return {
      world, endpoint: route.endpoint, now, caller, key, params, body: parsed, taxSpanDays: state.taxSpanDays,
      signedAt: typeof stamp === 'string' && /^\d+$/.test(stamp) ? Number(stamp) : null,
    };
  }

  return { server, stats };
}

/** Copy-trading traders get 1 request/second on E1 and E17 (spec §8). */
function rateOf(route: Route, caller: SandboxAccount | null): number {
  if (caller?.copyTrader && (route.endpoint.id === 'E1' || route.endpoint.id === 'E17')) return 1;
  return route.endpoint.ratePerSecond;
}
