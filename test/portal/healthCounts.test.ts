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

    // That first read stored what it counted under the new key, so the next reader takes them
    // (a planted figure shows up) instead of reading the whole ledger again.
    const storedAfterImport = await run(`SELECT counts FROM account_health_counts WHERE key = account_health_key()`);
    expect(storedAfterImport).toHaveLength(1);
    expect(storedAfterImport[0]!.counts).toEqual(await computeHealthCounts(run, true));
    expect(await run(`SELECT count(*)::int AS n FROM account_health_counts`)).toEqual([{ n: 1 }]);
    await pool.query(`UPDATE account_health_counts SET counts = jsonb_set(counts, ARRAY['w1', 'unpriced'], '515151')`);
    expect((await readAccountHealth(pool)).get('w1')?.unpricedRows).toBe(515151);
  });

  it('are counted afresh after a correction, an undo, or a new quote coin or stablecoin', async () => {
    // (A wallet with no warning at all has no entry: none is 0.)
    const unpricedOfW1 = async () => (await readAccountHealth(pool)).get('w1')?.unpricedRows ?? 0;
    // A planted figure for w1 in the stored row (whether or not it had an entry).
    const plant = (n: number) => pool.query(`UPDATE account_health_counts SET counts = counts || jsonb_build_object('w1',
      jsonb_build_object('flagged', 0, 'unclassified', 0, 'unpriced', $1::int, 'unexplained', 0, 'opening', 0, 'unsettled', 0))`, [n]);
    // The stored row planted above stands until something changes the key.
    expect(await unpricedOfW1()).toBe(515151);
    const [row] = await run(`SELECT account_uid, wallet, source, source_id, leg FROM ledger_valued('USD') WHERE account_uid = 'w1' AND price_source = 'unpriced'`);
    expect(row).toBeDefined();
    const [set] = await run(`INSERT INTO ledger_corrections (account_uid, wallet, source, source_id, leg, price, price_currency, price_source, why, set_by)
      VALUES ($1, $2, $3, $4, $5, 2.5, 'USD', 'a dealer quote', 'no market price', 'anna') RETURNING id`,
    [row!.account_uid, row!.wallet, row!.source, row!.source_id, row!.leg]);
    // A price given to the row: no longer unpriced.
    expect(await unpricedOfW1()).toBe(0);
    await plant(616161);
    expect(await unpricedOfW1()).toBe(616161);
    // Undone: unpriced again, and the page says so at once (not at the next sync).
    await pool.query(`UPDATE ledger_corrections SET undone_at = now(), undone_by = 'anna', undo_why = 'the quote was wrong' WHERE id = $1`, [set!.id]);
    expect(await unpricedOfW1()).toBe(1);
    for (const change of [`INSERT INTO quote_coins (coin) VALUES ('ZZQ')`, `INSERT INTO stablecoins (coin, peg) VALUES ('ZZS', 'USD')`,
      `UPDATE stablecoins SET peg = 'EUR' WHERE coin = 'ZZS'`]) {
      await plant(717171);
      expect(await unpricedOfW1()).toBe(717171);
      await pool.query(change);
      expect(await unpricedOfW1(), change).toBe(1);
    }
  });

  it('have one key whatever the reader\'s time zone', async () => {
    const client = await pool.connect();
    try {
      const keyIn = async (zone: string) => {
        await client.query(`SELECT set_config('TimeZone', $1, false)`, [zone]);
        return (await client.query(`SELECT account_health_key() AS key`)).rows[0].key as string;
      };
      const utc = await keyIn('UTC');
      // The key holds the times of the sync run, its checkpoints and the imported file.
      expect(utc.split('|').length).toBeGreaterThan(6);
      expect(await keyIn('Asia/Tokyo')).toBe(utc);
      expect(await keyIn('America/Los_Angeles')).toBe(utc);
    } finally {
      await client.query(`RESET TimeZone`);
      client.release();
    }
  });

  it('are still given to a reader that may not store them', async () => {
    await pool.query(`INSERT INTO quote_coins (coin) VALUES ('ZZR')`);
    expect(await run(`SELECT count(*)::int AS n FROM account_health_counts WHERE key = account_health_key()`)).toEqual([{ n: 0 }]);
    const readOnly = new pg.Pool({ connectionString: fresh.url, max: 4, options: '-c default_transaction_read_only=on' });
    readOnly.on('error', () => {});
    try {
      expect((await readAccountHealth(readOnly)).get('w1')?.unpricedRows).toBe(1);
    } finally {
      await readOnly.end();
    }
    expect(await run(`SELECT count(*)::int AS n FROM account_health_counts WHERE key = account_health_key()`)).toEqual([{ n: 0 }]);
  });
});
