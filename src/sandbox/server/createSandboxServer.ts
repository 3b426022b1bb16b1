import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { EndpointDef, Permission } from '../../api/endpoints.js';
import { errorMessage } from '../../api/errorCodes.js';
import { WorldError, type SandboxAccount, type SandboxKey, type World } from '../world.js';
import { ApiFailure } from './ApiFailure.js';
import type { FaultDecision } from './FaultInjector.js';
import { RateLimiter } from './RateLimiter.js';
import type { RequestContext } from './RequestContext.js';
import { RequestParams } from './RequestParams.js';
import type { SandboxState } from './SandboxState.js';
import { SandboxStats } from './SandboxStats.js';
import { authenticate, plainIp } from './authenticate.js';
import { handleControl } from './handleControl.js';
import { routeTable, type Route } from './routes/routeTable.js';
import { errorBody, sendJson } from './sendJson.js';
import { withUnknownField } from './withUnknownField.js';

const maxBodyBytes = 1 << 20;

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
    if (fault.failure === '429') return sendJson(res, 429, errorBody('429', errorMessage('429'), serverNow()));
    const now = serverNow();
    let uid = '-';
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
      const limited = state.rateLimit && !limiter.take(`${uid}|${route.endpoint.id}`, rateOf(route, caller));
      stats.count(route.endpoint.id, uid, limited);
      if (limited) return sendJson(res, 429, errorBody('429', errorMessage('429'), now));
      const data = route.handler(contextOf(route, req, rawQuery, body, now, caller, key));
      sendSuccess(req, res, fault, JSON.stringify({ code: '00000', msg: 'success', requestTime: now, data: fault.unknownField ? withUnknownField(data) : data }));
    } catch (err) {
      if (uid === '-') stats.count(route.endpoint.id, uid, false);
      if (err instanceof ApiFailure || err instanceof WorldError) return sendJson(res, err.httpStatus, errorBody(err.code, err.message, now));
      throw err;
    }
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

/**
 * `read` is met by any permission (trade permissions are read-write); `write` needs any trade
 * permission; a named trade permission must be held exactly. Missing: 40014.
 */
function checkPermission(endpoint: EndpointDef, key: SandboxKey): void {
  const need = endpoint.permission;
  if (need === null) return;
  const trade: Permission[] = ['spot_trade', 'margin_trade', 'contract_trade'];
  const ok = need === 'read' ? key.perms.length > 0
    : need === 'write' ? key.perms.some((p) => trade.includes(p))
      : key.perms.includes(need);
  if (!ok) throw ApiFailure.of('40014', need === 'write' ? trade.join(' or ') : need);
}

function sendSuccess(req: IncomingMessage, res: ServerResponse, fault: FaultDecision, text: string): void {
  if (fault.failure === 'drop') {
    // Promise the whole body, send part of it, then cut the connection mid-body.
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.write(text.slice(0, Math.floor(text.length / 2)), () => req.socket.destroy());
    return;
  }
  if (fault.failure === 'malformed') return sendJson(res, 200, text.slice(0, Math.max(1, Math.floor(text.length * 0.6))));
  sendJson(res, 200, text);
}

function sendServerError(res: ServerResponse, status: number, now: number): void {
  // Gateways answer 502/504 with HTML, the service itself 500/503 with an envelope.
  if (status === 502 || status === 504) {
    return sendJson(res, status, `<html><body><h1>${status} ${status === 502 ? 'Bad Gateway' : 'Gateway Time-out'}</h1></body></html>`, 'text/html');
  }
  sendJson(res, status, errorBody('45001', errorMessage('45001'), now));
}

async function readBody(req: IncomingMessage): Promise<string> {
  if (req.method === 'GET' || req.method === 'HEAD') {
    req.resume();
    return '';
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes) throw ApiFailure.of('40017', `the body is larger than ${maxBodyBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
