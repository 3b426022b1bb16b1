import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { parse } from 'csv-parse/sync';
import { sandboxWithDatabase } from '../support/sandboxWithDatabase.js';
import { runSync } from '../../src/extract/runSync.js';
import { testSyncOptions, sandboxUids } from '../support/testSync.js';
import { runReports } from '../../src/reports/runReports.js';
import { reportFiles, reportFormats } from '../../src/reports/reportFormats.js';
import { reportPreview } from '../../src/portal/reportPreview.js';
import { reportRequest } from '../../src/portal/reportRequest.js';

const env = sandboxWithDatabase();
let pool: pg.Pool;
let out: string;
let from: string;
let to: string;
let account: string;

beforeAll(async () => {
  const result = await runSync(testSyncOptions(env.sandbox, env.fresh.db));
  expect(result.errors).toEqual([]);
  pool = new pg.Pool({ connectionString: env.fresh.url, max: 3 });
  // The database is dropped WITH (FORCE) at the end; a pooled client that is still closing then
  // gets 57P01, which the pool re-emits: without a listener that is an uncaught exception.
  pool.on('error', () => {});
  out = await mkdtemp(path.join(tmpdir(), 'tl-preview-'));
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const now = env.sandbox.world.now();
  from = day(now - 400 * 86_400_000);
  to = day(now + 86_400_000);
  account = sandboxUids(env.sandbox)[0]!;
}, 300_000);
afterAll(async () => {
  await pool?.end();
  if (out) await rm(out, { recursive: true, force: true });
});

describe('the report preview', () => {
  // The preview reads short periods first; these must give exactly the file's first rows.
  it.each(reportFormats)('shows the first rows of every %s file exactly as the CLI writes them', async (format) => {
    const { manifest } = await runReports({ databaseUrl: env.fresh.url, format, account, outDir: path.join(out, format), period: reportRequest({ period: 'range', from, to, tz: 'Asia/Tokyo' }).period });
    for (const { file } of reportFiles(format)) {
      const records = parse(await readFile(path.join(out, format, file)), { relax_column_count: true }) as string[][];
      const [header, ...rows] = records;
      for (const limit of [3, 40]) {
        const preview = await reportPreview(pool, reportRequest({ period: 'range', from, to, tz: 'Asia/Tokyo', format, account, file }), limit);
        expect(preview.columns, file).toEqual(header);
        expect(preview.rows.map((r) => r.map((v) => v ?? '')), `${file} limit ${limit}`).toEqual(rows.slice(0, limit));
        expect(preview.more, file).toBe(rows.length > limit);
      }
      expect(manifest.files.find((f) => f.file === file)!.rows).toBe(rows.length);
    }
  });

  // The download refuses a period that starts after today (report --year 2030 typed for 2020);
  // the preview showed an empty table for it.
  it('refuses a period that starts after today with the download\'s words', async () => {
    const year = String(new Date().getUTCFullYear() + 2);
    const request = reportRequest({ period: 'year', year, tz: 'UTC', format: 'native', account });
    const preview = await reportPreview(pool, request, 5).then(() => null, (e: unknown) => e as Error);
    const download = await runReports({ databaseUrl: env.fresh.url, format: 'native', account, outDir: path.join(out, 'future'), period: request.period }).then(() => null, (e: unknown) => e as Error);
    expect(preview?.message).toMatch(new RegExp(`^the period from ${year}-01-01 starts after today`));
    expect(preview?.message).toBe(download?.message);
  });
});
