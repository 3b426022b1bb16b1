import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { runGains, type RunGainsOptions } from '../../src/gains/runGains.js';

/**
 * What one gains run wrote and stored, without what names the run (its id, the time it was
 * written): each file of its manifest by rows and SHA-256, and each gains table's rows of the run
 * (without run_id) by count and md5, to compare two runs that must agree figure for figure.
 *
 * @example
 * expect(await gainsOutcome(db, { ...opts, readSlices: 6 })).toEqual({ ...await gainsOutcome(db, { ...opts, readSlices: 1 }), slices: 6 });
 */
export async function gainsOutcome(db: Kysely<any>, options: Omit<RunGainsOptions, 'outDir'>) {
  const out = await mkdtemp(path.join(tmpdir(), 'gains-outcome-'));
  const r = await runGains({ ...options, outDir: out });
  const manifest = JSON.parse(await readFile(path.join(out, 'manifest.json'), 'utf8')) as { files: { file: string; sha256: string; rows: number }[] };
  await rm(out, { recursive: true, force: true });
  const stored: Record<string, string> = {};
  for (const table of ['gains_matches', 'gains_match_rows', 'gains_income', 'gains_problems', 'gains_holdings']) {
    const { rows } = await sql<{ h: string | null; n: number }>`
      SELECT md5(string_agg((to_jsonb(t) - 'run_id')::text, E'\n' ORDER BY (to_jsonb(t) - 'run_id')::text)) AS h, count(*)::int AS n
      FROM ${sql.table(table)} t WHERE run_id = ${r.runId}::bigint`.execute(db);
    stored[table] = `${rows[0]!.n}:${rows[0]!.h}`;
  }
  return { slices: r.readSlices, files: manifest.files.map((f) => `${f.file} ${f.rows} ${f.sha256}`), stored, disposals: r.summary.total.disposals };
}
