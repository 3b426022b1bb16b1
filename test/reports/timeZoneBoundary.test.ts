import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { parse } from 'csv-parse/sync';
import { freshDatabase } from '../support/database.js';
import type { FreshDatabase } from '../support/database.js';
import { runReports } from '../../src/reports/runReports.js';
import { reportPeriod } from '../../src/reports/reportPeriod.js';
import { fixtureSql } from './ledgerFixture.js';

let fresh: FreshDatabase;
let outRoot: string;

beforeAll(async () => {
  fresh = await freshDatabase();
  await sql.raw(fixtureSql).execute(fresh.db);
  outRoot = await mkdtemp(path.join(tmpdir(), 'tl-tz-'));
});
afterAll(async () => {
  await fresh?.drop();
  if (outRoot) await rm(outRoot, { recursive: true, force: true });
});

async function tradeIds(year: string, tz: string): Promise<string[]> {
  const outDir = path.join(outRoot, `${year}-${tz.replace('/', '_')}`);
  const { manifest } = await runReports({ databaseUrl: fresh.url, format: 'native', outDir, force: true, period: reportPeriod({ year, tz }) });
  expect(manifest.parameters.tz).toBe(tz);
  const records = parse(await readFile(path.join(outDir, 'trades.csv'), 'utf8'), { columns: true }) as { trade_id: string; time_local: string }[];
  return records.map((r) => `${r.trade_id} ${r.time_local}`);
}

describe('year boundaries fall in the chosen zone', () => {
  // f2 happened at 2025-12-31 23:30 UTC, which is 2026-01-01 08:30 in Tokyo.
  it('puts a trade at 23:30 UTC on Dec 31 into the next year in Asia/Tokyo', async () => {
    expect(await tradeIds('2025', 'Asia/Tokyo')).not.toContain('f2 2026-01-01 08:30:00.000');
    expect(await tradeIds('2026', 'Asia/Tokyo')).toEqual(['f2 2026-01-01 08:30:00.000']);
  });

  it('keeps it in the same year in UTC', async () => {
    expect(await tradeIds('2025', 'UTC')).toContain('f2 2025-12-31 23:30:00.000');
    expect(await tradeIds('2026', 'UTC')).toEqual([]);
  });

  it('states the period as instants in the manifest', async () => {
    const { manifest } = await runReports({
      databaseUrl: fresh.url, format: 'koinly', outDir: path.join(outRoot, 'bounds'), period: reportPeriod({ year: '2025', tz: 'Asia/Tokyo' }),
    });
    expect([manifest.parameters.fromUtc, manifest.parameters.toUtc]).toEqual(['2024-12-31T15:00:00Z', '2025-12-31T15:00:00Z']);
  });
});
