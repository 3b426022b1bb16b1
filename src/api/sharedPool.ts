import { Pool, ProxyAgent } from 'undici';
import type { Dispatcher } from 'undici';
import { proxyFor } from './proxySettings.js';

interface Entry {
  pool: Dispatcher;
  users: number;
}

const pools = new Map<string, Entry>();

/**
 * A keep-alive connection pool per origin, shared by every client of that origin and closed
 * when the last one releases it. Many accounts on one exchange then reuse warm connections
 * instead of opening a pool each. Through the proxy the environment names for that origin
 * (HTTPS_PROXY, NO_PROXY: proxySettings.ts), when it names one; a request then gives its `origin`.
 *
 * @example
 * const pool = acquirePool('http://127.0.0.1:8080');
 * try { await pool.request({ origin: 'http://127.0.0.1:8080', path: '/x', method: 'GET' }); } finally { await releasePool('http://127.0.0.1:8080'); }
 */
export function acquirePool(origin: string): Dispatcher {
  let entry = pools.get(origin);
  if (entry === undefined) {
    const proxy = proxyFor(origin);
    const options = { connections: 32, keepAliveTimeout: 10_000, pipelining: 1 };
    entry = { pool: proxy === undefined ? new Pool(origin, options) : new ProxyAgent({ uri: proxy, ...options }), users: 0 };
    pools.set(origin, entry);
  }
  entry.users += 1;
  return entry.pool;
}

/** Releases one use of the origin's pool; the last release closes it. */
export async function releasePool(origin: string): Promise<void> {
  const entry = pools.get(origin);
  if (entry === undefined) return;
  entry.users -= 1;
  if (entry.users <= 0) {
    pools.delete(origin);
    await entry.pool.close();
  }
}
