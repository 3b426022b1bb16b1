import type pg from 'pg';
import { TradeledgerError } from '../errors.js';

/** The PostgreSQL connections one `tradeledger worker` process may open, by pool. */
export interface WorkerConnections {
  /** The sync's pool: min(60, 12 x concurrency + 2). A sync runs its streams ~12 at once. */
  sync: number;
  /** The rate budgets' reservations, a pool of their own so a request never waits behind the loading statements (SyncOptions.rateDb): 3. */
  rates: number;
  /** The job engine's runner pool: concurrency + 2. */
  engine: number;
  /** The engine's utilities (migrate, unlock dead peers): 2. */
  utilities: number;
  /** The worker registry's session, which holds the registration: 1. */
  registry: number;
  total: number;
}

/**
 * The most connections one worker process opens, as a formula (docs/operations.md):
 * min(60, 12c + 2) + 3 + (c + 2) + 2 + 1 for concurrency c. Every pool is created with these
 * sizes, so the bound holds.
 *
 * @example
 * workerConnections(2).total; // 26 + 3 + 4 + 2 + 1 = 36
 */
export function workerConnections(concurrency: number): WorkerConnections {
  const sync = Math.min(60, concurrency * 12 + 2);
  const rates = 3;
  const engine = concurrency + 2;
  const utilities = 2;
  const registry = 1;
  return { sync, rates, engine, utilities, registry, total: sync + rates + engine + utilities + registry };
}

/** What the server allows beside a worker's budget. */
export interface ConnectionRoom {
  maxConnections: number;
  reserved: number;
  inUse: number;
}

/**
 * Refuses a worker whose connection budget can never fit the server (more than max_connections
 * less the superuser-reserved ones, or the user's CONNECTION LIMIT where that is lower), and says how many are free now so the caller can warn when
 * it fits only on an idle server.
 *
 * @example
 * const room = await checkConnectionRoom(client, workerConnections(4));
 */
export async function checkConnectionRoom(client: pg.ClientBase | pg.Pool, budget: WorkerConnections, concurrency: number): Promise<ConnectionRoom> {
  // A user's CONNECTION LIMIT binds too, where it is lower (superusers are exempt from it).
  const { rows: [r] } = await client.query<{ max: string; reserved: string; in_use: string; role_limit: number | null }>(`
    SELECT current_setting('max_connections') AS max, current_setting('superuser_reserved_connections') AS reserved,
           (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend')::text AS in_use,
           (SELECT CASE WHEN rolsuper OR rolconnlimit < 0 THEN NULL ELSE rolconnlimit END FROM pg_roles WHERE rolname = current_user) AS role_limit`);
  const room = { maxConnections: Number(r!.max), reserved: Number(r!.reserved), inUse: Number(r!.in_use) };
  const byRole = r!.role_limit !== null && r!.role_limit < room.maxConnections - room.reserved;
  const usable = byRole ? r!.role_limit! : room.maxConnections - room.reserved;
  if (budget.total > usable) {
    let fits = 0;
    for (let c = 1; c <= 64 && workerConnections(c).total <= usable; c++) fits = c;
    const limit = byRole ? `this user's CONNECTION LIMIT ${usable}` : `this server's max_connections ${room.maxConnections} less ${room.reserved} reserved`;
    const raise = byRole ? 'raise the user\'s limit (ALTER ROLE name CONNECTION LIMIT -1)' : 'raise max_connections in postgresql.conf';
    throw new TradeledgerError('WORKER_TOO_MANY_CONNECTIONS', `a worker at concurrency ${concurrency} may open ${budget.total} connections (sync ${budget.sync}, rate reservations ${budget.rates}, engine ${budget.engine}, utilities ${budget.utilities}, registry ${budget.registry}), more than ${limit}`, {
      kind: 'config',
      hint: fits > 0
        ? `Use --concurrency ${fits} or less here, or ${raise} (every worker of the fleet counts: see docs/operations.md).`
        : `${raise[0]!.toUpperCase()}${raise.slice(1)} (see docs/operations.md for the formula per worker).`,
    });
  }
  return room;
}

/**
 * `worker` and `enqueue` serve a fleet that shares one database: without DATABASE_URL they would
 * start a private embedded server and sync every account into it, beside the fleet, unseen.
 *
 * @example
 * requireSharedDatabase('worker', process.env);
 */
export function requireSharedDatabase(command: 'worker' | 'enqueue', env: NodeJS.ProcessEnv): void {
  if (env.DATABASE_URL?.trim()) return;
  throw new TradeledgerError('WORKER_NEEDS_DATABASE', `tradeledger ${command} needs DATABASE_URL: the workers and their job queue share one PostgreSQL, and without it this would start a private embedded database`, {
    kind: 'config',
    hint: 'Set DATABASE_URL to the shared server on every machine, e.g. DATABASE_URL=postgresql://ledger@db.internal:5432/ledger (for one machine and no queue, use tradeledger sync).',
  });
}
