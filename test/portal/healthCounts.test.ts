import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY_MS } from '../../src/api/endpoints.js';
import { exitCodes } from '../../src/errors.js';
import { readAccountHealth } from '../../src/portal/accountHealth.js';
import { computeHealthCounts } from '../../src/db/accountHealthCounts.js';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { runCli } from '../support/runCli.js';
import { writeSandboxConfig } from '../support/sandboxConfig.js';

// Issue 24 item 6: the sync stores the accounts page's whole-ledger counts under the bookkeeping
// key, and the page's first read after the sync takes them instead of reading the ledger again.

let sandbox: RunningSandbox;
let fresh: FreshDatabase;
let pool: pg.Pool;
let dir: string;

beforeAll(async () => {
  sandbox = await startTestSandbox();
  fresh = await freshDatabase();
  pool = new pg.Pool({ connectionString: fresh.url, max: 4 });
  pool.on('error', () => {});
  dir = await mkdtemp(path.join(tmpdir(), 'tl-health-counts-'));
});
afterAll(async () => {
  await pool?.end();
  await sandbox?.close();
  await fresh?.drop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const run = (text: string, values?: unknown[]) => pool.query(text, values).then((r) => r.rows as Record<string, unknown>[]);

describe('accounts page counts computed in the sync', () => {
  it('are stored by the sync under the current key, equal to a fresh count, and read from there until the key changes', async () => {
    const { file, env } = writeSandboxConfig(sandbox, { safetyLagSeconds: 0 }, { rateLimit: false });
    const synced = await runCli(['sync', '--config', file, '--streams', 'deposits,withdrawals,spotFills,transfers', '--since', String(sandbox.world.now() - 60 * DAY_MS)], { ...env, DATABASE_URL: fresh.url });
    expect(synced.code, synced.stderr.slice(-2000)).toBe(exitCodes.ok);

    const stored = await run(`SELECT key, counts, key = account_health_key() AS current, account_health_key() AS now FROM account_health_counts`);
    const seen = JSON.stringify({ stored, now: await run('SELECT account_health_key() AS key'), stderr: synced.stderr.slice(-500) });
    expect(stored, seen).toHaveLength(1);
    expect(stored[0]!.current, seen).toBe(true);
    const counted = await computeHealthCounts(run, true);
    expect(stored[0]!.counts).toEqual(counted);
    const uids = Object.keys(counted);
    expect(uids.length).toBeGreaterThan(0);

    // A planted figure in the stored row shows up: the reader took the stored counts, not the ledger.
    const uid = uids[0]!;
    await pool.query(`UPDATE account_health_counts SET counts = jsonb_set(counts, ARRAY[$1, 'unpriced'], '424242')`, [uid]);
    expect((await readAccountHealth(pool)).get(uid)?.unpricedRows).toBe(424242);

    // An import changes the key: the stored row no longer applies, and the counts are read afresh.
    const csv = path.join(dir, 'wallet.csv');
    await writeFile(csv, 'Date,Received Amount,Received Currency\n2025-03-10 10:00 UTC,3,NOPRICEX\n');
    expect((await runCli(['import', 'transactions', csv, '--wallet', 'w1'], { DATABASE_URL: fresh.url })).code).toBe(0);
    const after = await readAccountHealth(pool);
    expect(after.get(uid)?.unpricedRows).toBe(counted[uid]!.unpriced);
    expect(after.get('w1')?.unpricedRows).toBe(1);
  });
});
