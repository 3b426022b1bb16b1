import { afterAll, beforeAll, expect } from 'vitest';
import pg from 'pg';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { runSync } from '../../src/extract/runSync.js';
import { testSyncOptions, sandboxUids } from '../support/testSync.js';
import { startPortal } from '../../src/portal/startPortal.js';
import type { RunningPortal } from '../../src/portal/startPortal.js';
import { addUser } from '../../src/portal/portalUsers.js';
import type { SessionPolicy } from '../../src/portal/sessionPolicy.js';

/** A synced database, a running portal on a clock the test moves, and two users. */
export interface PortalFixture {
  sandbox: RunningSandbox;
  fresh: FreshDatabase;
  pool: pg.Pool;
  portal: RunningPortal;
  /** The portal's clock: Date.now() plus this many ms. */
  clock: { offsetMs: number };
  /** Account UIDs: the accountant may see `granted` only. */
  granted: string;
  other: string;
  logLines: string[];
  admin: { username: string; password: string };
  accountant: { username: string; password: string };
}

/**
 * Syncs the tiny sandbox into a fresh database and starts the portal over it for a test file.
 *
 * @example
 * const f = portalFixture({ maxFailuresPerUser: 3 });
 * it('...', async () => { await fetch(f.portal.url); });
 */
export function portalFixture(policy: Partial<SessionPolicy> = {}): PortalFixture {
  const f = { clock: { offsetMs: 0 }, logLines: [] as string[] } as PortalFixture;
  beforeAll(async () => {
    f.sandbox = await startTestSandbox();
    f.fresh = await freshDatabase();
    const result = await runSync(testSyncOptions(f.sandbox, f.fresh.db));
    expect(result.errors).toEqual([]);
    const uids = sandboxUids(f.sandbox);
    expect(uids.length).toBeGreaterThan(1);
    f.granted = uids[0]!;
    f.other = uids[1]!;
    f.pool = new pg.Pool({ connectionString: f.fresh.url, max: 3 });
    // The database is dropped WITH (FORCE) at the end; a pooled client that is still closing then
    // gets 57P01, which the pool re-emits: without a listener that is an uncaught exception.
    f.pool.on('error', () => {});
    f.admin = { username: 'root-admin', password: 'admin password 1' };
    f.accountant = { username: 'anna', password: 'accountant password 1' };
    await addUser(f.pool, { ...f.admin, role: 'admin', accounts: [] });
    await addUser(f.pool, { ...f.accountant, role: 'accountant', accounts: [f.granted] });
    f.portal = await startPortal({
      databaseUrl: f.fresh.url, host: '127.0.0.1', port: 0, policy,
      now: () => Date.now() + f.clock.offsetMs, log: (line) => f.logLines.push(line),
    });
  }, 300_000);
  afterAll(async () => {
    await f.portal?.close();
    await f.pool?.end();
    await f.sandbox?.close();
    await f.fresh?.drop();
  });
  return f;
}

/** The sandbox's data spans about two years up to its "now": a range that covers all of it. */
export function wholeHistory(f: PortalFixture): { from: string; to: string } {
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const now = f.sandbox.world.now();
  return { from: day(now - 800 * 86_400_000), to: day(now + 2 * 86_400_000) };
}
