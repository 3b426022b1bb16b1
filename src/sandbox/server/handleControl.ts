import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HistoryResource, World } from '../world.js';
import { FaultInjector } from './FaultInjector.js';
import type { SandboxState } from './SandboxState.js';
import type { SandboxStats } from './SandboxStats.js';
import { isLoopback } from './isLoopback.js';
import { describeAccounts } from './describeAccounts.js';
import { parseFaultSpec } from './parseFaultSpec.js';
import { sendJson } from './sendJson.js';
import { writeTruth } from './writeTruth.js';

export interface ControlDeps {
  world: World;
  state: SandboxState;
  stats: SandboxStats;
}

/**
 * The unsigned test controls under /_sandbox/, reachable from loopback only and never subject
 * to faults or rate limits: GET truth (JSON lines; ?uid= & ?resource= filter), GET stats,
 * GET accounts, POST advance {ms}, POST settle {uid, resource, id}, POST faults {spec},
 * POST clock {skewMs}, POST retry-after {seconds} (a Retry-After header on every 429; null: none).
 *
 * @example
 * await fetch(`${baseUrl}/_sandbox/advance`, { method: 'POST', body: JSON.stringify({ ms: 86_400_000 }) });
 */
export async function handleControl(req: IncomingMessage, res: ServerResponse, path: string, rawQuery: string, body: string, deps: ControlDeps): Promise<void> {
  const { world, state, stats } = deps;
  if (!isLoopback(req.socket.remoteAddress)) return reply(res, 403, { error: 'test controls answer loopback clients only' });
  const route = `${req.method} ${path}`;
  let input: Record<string, unknown> = {};
  if (req.method === 'POST') {
    try {
      input = body ? (JSON.parse(body) as Record<string, unknown>) : {};
    } catch {
      return reply(res, 400, { error: 'the body must be JSON' });
    }
  }
  switch (route) {
    case 'GET /_sandbox/truth': {
      const q = new URLSearchParams(rawQuery);
      const uid = q.get('uid');
      const resource = q.get('resource');
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      await writeTruth(world, res, (r) => (uid === null || r.uid === uid) && (resource === null || r.resource === resource));
      res.end();
      return;
    }
    case 'GET /_sandbox/stats':
      return reply(res, 200, { total: stats.total, total429: stats.total429, requests: stats.requests, rateLimited: stats.rateLimited, faults: state.faults.injected });
    case 'GET /_sandbox/accounts':
      return reply(res, 200, describeAccounts(world));
    case 'POST /_sandbox/advance': {
      const ms = input.ms;
      if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 0) return reply(res, 400, { error: 'advance needs {"ms": <whole milliseconds >= 0>}' });
      world.advance(ms);
      return reply(res, 200, { now: world.now() });
    }
    case 'POST /_sandbox/settle': {
      const { uid, resource, id } = input;
      if (typeof uid !== 'string' || typeof resource !== 'string' || typeof id !== 'string') {
        return reply(res, 400, { error: 'settle needs {"uid": "...", "resource": "deposits|withdrawals|transfers|spotOrders|...", "id": "..."}' });
      }
      return reply(res, 200, { settled: world.settle(uid, resource as HistoryResource, id) });
    }
    case 'POST /_sandbox/faults': {
      if (typeof input.spec !== 'string') return reply(res, 400, { error: 'faults needs {"spec": "5xx=0.1,..."} ("" turns faults off)' });
      try {
        state.faults = new FaultInjector(state.seed, parseFaultSpec(input.spec));
      } catch (err) {
        return reply(res, 400, { error: err instanceof Error ? err.message : String(err) });
      }
      return reply(res, 200, { faults: state.faults.spec });
    }
    case 'POST /_sandbox/retry-after': {
      const seconds = input.seconds;
      if (seconds !== null && (typeof seconds !== 'number' || !Number.isInteger(seconds) || seconds < 0)) return reply(res, 400, { error: 'retry-after needs {"seconds": <whole seconds >= 0, or null for no header>}' });
      state.retryAfterSeconds = seconds;
      return reply(res, 200, { retryAfterSeconds: seconds });
    }
    case 'POST /_sandbox/clock': {
      const skewMs = input.skewMs;
      if (typeof skewMs !== 'number' || !Number.isInteger(skewMs)) return reply(res, 400, { error: 'clock needs {"skewMs": <whole milliseconds, may be negative>}' });
      state.skewMs = skewMs;
      return reply(res, 200, { skewMs, serverTime: world.now() + skewMs });
    }
    default:
      return reply(res, 404, { error: `no test control ${route}; see GET /_sandbox/stats, /truth, /accounts and POST /advance, /settle, /faults, /clock, /retry-after` });
  }
}

function reply(res: ServerResponse, status: number, value: unknown): void {
  sendJson(res, status, JSON.stringify(value));
}
