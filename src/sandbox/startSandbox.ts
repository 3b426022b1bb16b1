import type { AddressInfo } from 'node:net';
import { TradeledgerError } from '../errors.js';
import { createWorld } from './data/createWorld.js';
import { FaultInjector } from './server/FaultInjector.js';
import type { SandboxState } from './server/SandboxState.js';
import type { SandboxStats } from './server/SandboxStats.js';
import { createSandboxServer } from './server/createSandboxServer.js';
import { describeAccounts, type AccountLine } from './server/describeAccounts.js';
import { parseFaultSpec } from './server/parseFaultSpec.js';
import type { World } from './world.js';
import { systemErrorWords } from '../systemErrorWords.js';

export interface SandboxOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  seed?: number;
  /** A preset (tiny, small, medium, large, xl) and/or resource=count terms. */
  scale?: string;
  /** Anchor time of the generated history (Unix ms); default: now. */
  now?: number;
  /** Per-UID rate limits and the overall per-IP limit (default true). */
  rateLimit?: boolean;
  /** The overall per-IP limit in requests per minute (default 6000, api-notes.md); tests lower it. */
  ipRatePerMinute?: number;
  /** How long an address that tripped the per-IP limit is refused, in ms (default 300,000). */
  ipLockoutMs?: number;
  /** A fault spec, see `faultSyntax`. */
  faults?: string;
  /** One stderr line per request. */
  logRequests?: boolean;
  /** Span of E5 and the tax endpoints in days (30 by default; 366 in another copy of the docs). */
  taxSpanDays?: number;
  /** Extra main accounts playing a firm's clients (`--accounts`), each with its own UID, key and data; default 0. */
  accounts?: number;
  /** Serve this world instead of generating one from seed/scale/now. */
  world?: World;
  /** The rate limiter's clock (default performance.now() at arrival); see SandboxState.rateClock. */
  rateClock?: SandboxState['rateClock'];
  /** `Retry-After` seconds on every 429 (default none, as api-notes.md documents the exchange); see SandboxState. */
  retryAfterSeconds?: number | null;
}

export interface RunningSandbox {
  baseUrl: string;
  accounts: AccountLine[];
  world: World;
  /** Live counters, also at GET /_sandbox/stats. */
  stats: SandboxStats;
  /** Runtime settings (faults, clock skew) that tests may change. */
  state: SandboxState;
  close(): Promise<void>;
}

/**
 * Starts the exchange twin: generates the world (deterministic from the seed), then serves the
 * V2 API over HTTP. Used by `tradeledger sandbox`, the demo, tests and benchmarks.
 *
 * @example
 * const sandbox = await startSandbox({ seed: 1, scale: 'tiny' });
 * // ... sign requests to sandbox.baseUrl with sandbox.accounts[0] ...
 * await sandbox.close();
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const seed = options.seed ?? 1;
  const faults = new FaultInjector(seed, parseFaultSpec(options.faults ?? ''));
  const world = options.world ?? makeWorld(seed, options.scale ?? 'small', options.now, options.accounts ?? 0);
  const state: SandboxState = {
    seed, rateLimit: options.rateLimit ?? true, ipRatePerMinute: options.ipRatePerMinute ?? 6000, ipLockoutMs: options.ipLockoutMs ?? 300_000, taxSpanDays: options.taxSpanDays ?? 30, skewMs: 0, faults, logRequests: options.logRequests ?? false,
    rateClock: options.rateClock, retryAfterSeconds: options.retryAfterSeconds ?? null,
  };
  const { server, stats } = createSandboxServer(world, state);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => reject(new TradeledgerError('SANDBOX_LISTEN', `the sandbox cannot listen on ${host}:${options.port ?? 0}: ${systemErrorWords(err)}`, {
      kind: 'config', hint: 'Choose another --port (0 picks a free one) or --host.', cause: err,
    })));
    server.listen(options.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  // A wildcard address is not connectable; point clients at loopback instead.
  const urlHost = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
  return {
    baseUrl: `http://${urlHost}:${port}`, accounts: describeAccounts(world), world, stats, state,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

function makeWorld(seed: number, scale: string, now: number | undefined, clientAccounts: number): World {
  if (!Number.isSafeInteger(seed)) throw new TradeledgerError('BAD_SEED', `seed must be a whole number (got ${seed})`, { kind: 'config', hint: 'Pass --seed 1, for example.' });
  try {
    return createWorld({ seed, scale, clientAccounts, ...(now === undefined ? {} : { now }) });
  } catch (err) {
    if (err instanceof Error && err.name === 'ScaleError') {
      throw new TradeledgerError('BAD_SCALE', `bad --scale: ${err.message}`, { kind: 'config', hint: 'Use tiny, small, medium, large or xl, and/or resource=count terms.' });
    }
    throw err;
  }
}
