// The README's first command fills the embedded database with the demo's sandbox world, and the
// same database is every later command's default: an operator's first `tradeledger sync` of their
// own accounts must not land beside the demo's made-up records (every report of all accounts, and
// its tax files, would carry them). A sync of the demo's own accounts goes on as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase, type FreshDatabase } from '../support/database.js';
import { startTestSandbox, type RunningSandbox } from '../support/sandbox.js';
import { writeSandboxConfig } from '../support/sandboxConfig.js';
import { sandboxUids } from '../support/testSync.js';
import { runCli } from '../support/runCli.js';
import { DAY_MS } from '../../src/api/endpoints.js';

let sandbox: RunningSandbox;
beforeAll(async () => { sandbox = await startTestSandbox(); });
afterAll(async () => { await sandbox?.close(); });

/**
 * Runs `fn` on a fresh database holding one finished run of these account UIDs, as a demo's own run
 * records it (`demo`: options.sandbox) or as any other sync does; dropped afterwards.
 */
async function inDatabase(run: { uids: string[]; demo: boolean }, fn: (fresh: FreshDatabase) => Promise<void>): Promise<void> {
  const fresh = await freshDatabase();
  try {
    const options = run.demo ? { sandbox: { seed: '1', scale: 'tiny' }, streams: [], accounts: [] } : {};
    await sql`INSERT INTO sync_runs (options, account_uids, finished_at, status)
              VALUES (${JSON.stringify(options)}::jsonb, ${run.uids}::text[], now(), 'ok')`.execute(fresh.db);
    await fn(fresh);
  } finally {
    await fresh.drop();
  }
}

/** `tradeledger sync` of every sandbox account's last 30 days of deposits into `fresh`. */
async function syncDeposits(fresh: FreshDatabase) {
  const { file, env } = writeSandboxConfig(sandbox, { since: String(sandbox.world.now() - 30 * DAY_MS), streams: ['deposits'] });
  return runCli(['sync', '--config', file], { ...env, DATABASE_URL: fresh.url });
}

const count = async (fresh: FreshDatabase, table: string) => Number((await sql<{ n: string }>`SELECT count(*)::text AS n FROM ${sql.table(table)}`.execute(fresh.db)).rows[0]!.n);

describe('tradeledger sync into the demo\'s database', () => {
  it('refuses accounts that are not the demo\'s, names them and says how to go on, and writes nothing', () => inDatabase({ uids: ['7000000001', '7000000002'], demo: true }, async (fresh) => {
    const r = await syncDeposits(fresh);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('this database holds the demo\'s sandbox accounts (seed 1, scale tiny: 2 accounts)');
    const main = sandbox.accounts.find((a) => a.main && !a.demo)!;
    expect(r.stderr).toContain(`(${main.uid})`);
    expect(r.stderr).toContain('nothing was synced');
    expect(r.stderr).toContain('TRADELEDGER_DATA_DIR');
    expect(r.stderr).not.toMatch(/unexpected error|\n\s+at /);
    expect(await count(fresh, 'accounts')).toBe(0);
    expect(await count(fresh, 'deposits')).toBe(0);
    expect(await count(fresh, 'sync_runs')).toBe(1);
  }), 120_000);

  it('syncs the demo\'s own accounts as before', () => inDatabase({ uids: sandboxUids(sandbox), demo: true }, async (fresh) => {
    const r = await syncDeposits(fresh);
    expect(r.code, r.stderr).toBe(0);
    expect(await count(fresh, 'sync_runs')).toBe(2);
    expect(await count(fresh, 'accounts')).toBeGreaterThan(0);
  }), 120_000);

  it('a database no demo filled takes any accounts', () => inDatabase({ uids: ['7000000001'], demo: false }, async (fresh) => {
    const r = await syncDeposits(fresh);
    expect(r.code, r.stderr).toBe(0);
  }), 120_000);
});
