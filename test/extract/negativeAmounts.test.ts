import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { parse } from 'csv-parse/sync';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { startTestSandbox } from '../support/sandbox.js';
import type { RunningSandbox } from '../support/sandbox.js';
import { startMutatingProxy } from '../support/mutatingProxy.js';
import type { MutatingProxy } from '../support/mutatingProxy.js';
import { runSync } from '../../src/extract/runSync.js';
import { runReports } from '../../src/reports/runReports.js';
import { reportPeriod } from '../../src/reports/reportPeriod.js';
import { fillsOnly, fillsPath } from './hostileExchange.js';

let sandbox: RunningSandbox;
let proxy: MutatingProxy;
let fresh: FreshDatabase;
let outRoot: string;
/** The fill and the deposit the proxy gave a negative size. */
const spoiled = { fill: '', deposit: '' };

beforeAll(async () => {
  sandbox = await startTestSandbox();
  proxy = await startMutatingProxy(sandbox.baseUrl);
  fresh = await freshDatabase();
  outRoot = await mkdtemp(path.join(tmpdir(), 'tl-sign-'));
  // One sell fill and one successful deposit get a negative size, in every answer that holds them.
  proxy.rewrite((a) => {
    if (a.json?.code !== '00000' || !Array.isArray(a.json.data)) return undefined;
    const data = a.json.data as Record<string, string>[];
    let changed = false;
    for (const r of data) {
      if (a.path === fillsPath && (spoiled.fill === '' ? r.side === 'sell' : r.tradeId === spoiled.fill)) {
        spoiled.fill = r.tradeId!;
        r.size = '-1e5';
        changed = true;
      }
      if (a.path === '/api/v2/spot/wallet/deposit-records' && (spoiled.deposit === '' ? r.status === 'success' : r.orderId === spoiled.deposit)) {
        spoiled.deposit = r.orderId!;
        r.size = `-${r.size}`;
        changed = true;
      }
    }
    return changed ? a.json : undefined;
  });
  const only = fillsOnly(sandbox, fresh.db, proxy.baseUrl);
    const result = await runSync({ ...only, sync: { ...only.sync, streams: ['spotFills', 'deposits'] } });
  expect(result.errors).toEqual([]);
});
afterAll(async () => {
  await proxy?.close();
  await sandbox?.close();
  await fresh?.drop();
  if (outRoot) await rm(outRoot, { recursive: true, force: true });
});

describe('amounts with a sign the API never uses', () => {
  it('are flagged and kept raw', async () => {
    expect(spoiled.fill).not.toBe('');
    expect(spoiled.deposit).not.toBe('');
    const { rows } = await sql<{ raw: { size: string }; size: string; problems: string[] }>`
      SELECT raw, size::text AS size, problems FROM spot_fills WHERE trade_id = ${spoiled.fill}`.execute(fresh.db);
    expect(rows[0]!.raw.size).toBe('-1e5');
    expect(rows[0]!.problems.join(' ')).toMatch(/size: "-1e5" is negative, a sign the API never uses/);
    const { rows: deposits } = await sql<{ problems: string[] }>`SELECT problems FROM deposits WHERE order_id = ${spoiled.deposit}`.execute(fresh.db);
    expect(deposits[0]!.problems.join(' ')).toMatch(/size: .* is negative/);
  });

  it('are left out of the ledger and every export, and listed in data-quality.csv', async () => {
    const { rows } = await sql<{ n: string }>`SELECT count(*)::text AS n FROM ledger WHERE source_id IN (${spoiled.fill}, ${spoiled.deposit})`.execute(fresh.db);
    expect(rows[0]!.n).toBe('0');
    // The other fills and deposits are still there.
    const { rows: others } = await sql<{ n: string }>`SELECT count(DISTINCT source_id)::text AS n FROM ledger WHERE source IN ('spot_fills', 'deposits')`.execute(fresh.db);
    expect(Number(others[0]!.n)).toBeGreaterThan(20);
    const now = sandbox.world.now();
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const period = reportPeriod({ from: day(now - 800 * 86_400_000), to: day(now + 2 * 86_400_000), tz: 'UTC' });
    for (const format of ['native', 'koinly', 'cointracking', 'cointracker'] as const) {
      const outDir = path.join(outRoot, format);
      const { manifest } = await runReports({ databaseUrl: fresh.url, format, outDir, period });
      for (const f of manifest.files) {
        const records = parse(await readFile(path.join(outDir, f.file)), { columns: true }) as Record<string, string>[];
        const mentions = records.filter((r) => Object.values(r).some((v) => v.includes(spoiled.fill) || v.includes(spoiled.deposit)));
        if (f.file === 'data-quality.csv') {
          expect(mentions.map((r) => r.record_id).sort()).toEqual([spoiled.deposit, spoiled.fill].sort());
          for (const r of mentions) expect(r.problem).toMatch(/a sign the API never uses/);
        } else if (f.file === 'deposits-withdrawals.csv') {
          // Listed (it lists every deposit, whatever its state), but not as counted in the ledger.
          expect(mentions.map((r) => r.in_ledger)).toEqual(['false']);
        } else {
          expect(mentions, `${format}/${f.file}`).toEqual([]);
        }
      }
    }
  });
});
