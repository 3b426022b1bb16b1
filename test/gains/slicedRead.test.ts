// Issue 24: `tradeledger gains` reads a large valued ledger in slices of time, each valued and
// sorted by itself on one of two connections in one snapshot, the next while the last is matched
// (src/gains/runGains.ts, queryBatchesInTurn). The slices together are the one query they replace,
// so every figure must be the same: here every file a run writes and every row it stores, read in
// 1, 2, 6 and 16 slices, for each rule set, on a ledger with rows exactly at, just before and just
// after the slices' bounds (to the microsecond), several rows in one instant, and labels (the join
// that gives an imported line's label reads only the slice's lines).
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { freshDatabase, type FreshDatabase } from '../support/database.js';
import { runGains, sliceBounds } from '../../src/gains/runGains.js';
import { ruleSet, type RuleSetName } from '../../src/gains/ruleSets.js';
import { addDays } from '../../src/normalize/calendarDate.js';
import { insertImported, type ImportedRow } from './importedLedger.js';
import { gainsOutcome } from './gainsOutcome.js';
import { rng } from '../support/seededRandom.js';

let fresh: FreshDatabase;
const FIRST = '2023-03-01T00:00:00Z';
const SLICES = [2, 6, 16];
const YEAR = 2024;
const TZ = 'Europe/London';
const RULES: RuleSetName[] = ['uk', 'fifo', 'us', 'au', 'ca'];

beforeAll(async () => {
  fresh = await freshDatabase();
  const r = rng(2024);
  const rows: ImportedRow[] = [];
  const coins = ['TOKA', 'TOKB', 'TOKC'];
  const amount = () => (1 + Math.floor(r() * 900) / 100).toFixed(2);
  const add = (ts: string, i: number) => {
    const coin = coins[i % coins.length]!;
    const kind = i % 7;
    if (kind === 0) rows.push({ ts, received: [amount(), coin], label: 'reward', netWorth: ['12.34', 'GBP'] });
    else if (kind === 1) rows.push({ ts, sent: ['0.5', coin], label: 'gift', netWorth: ['7.5', 'GBP'] });
    else if (kind < 5) rows.push({ ts, sent: [String(100 + i), 'GBP'], received: [amount(), coin], fee: ['0.01', coin], netWorth: [String(100 + i), 'GBP'] });
    else rows.push({ ts, sent: ['1', coin], received: [String(80 + i), 'GBP'], netWorth: [String(80 + i), 'GBP'] });
  };
  rows.push({ ts: FIRST, sent: ['100000', 'GBP'], received: ['1000', 'TOKA'], netWorth: ['100000', 'GBP'] });
  rows.push({ ts: FIRST, sent: ['100000', 'GBP'], received: ['1000', 'TOKB'], netWorth: ['100000', 'GBP'] });
  rows.push({ ts: FIRST, sent: ['100000', 'GBP'], received: ['1000', 'TOKC'], netWorth: ['100000', 'GBP'] });
  // Rows every ~40 hours from the first to past the UK year's end, at odd microseconds.
  let i = 0;
  for (let t = Date.parse(FIRST) + 3_600_000; t < Date.parse('2025-06-01T00:00:00Z'); t += 144_000_000 + Math.floor(r() * 3_600_000)) {
    add(`${new Date(t).toISOString().slice(0, 19)}.${String(Math.floor(r() * 1e6)).padStart(6, '0')}Z`, i++);
  }
  // At every bound of every slicing tried, for every rule set's read: the bound itself, 1 µs
  // before and 1 µs after (the same millisecond: one instant for the ledger's grouping), twice.
  for (const name of RULES) {
    const rules = ruleSet(name);
    const readTo = addDays(rules.taxYear(YEAR).to, rules.lookaheadDays);
    const end = (await sql<{ ms: number }>`SELECT (extract(epoch FROM (${readTo}::timestamp AT TIME ZONE ${TZ})) * 1000)::float8 AS ms`.execute(fresh.db)).rows[0]!.ms;
    for (const k of SLICES) {
      for (const b of sliceBounds(Date.parse(FIRST), end, k).slice(1, -1)) {
        const base = b.slice(0, 23);
        for (const us of ['000', '000', '001']) add(`${base}${us}Z`, i++);
        add(`${new Date(Date.parse(b) - 1).toISOString().slice(0, 23)}999Z`, i++);
      }
    }
  }
  await insertImported(fresh.db, 'slices', rows);
  await sql`ANALYZE imported_transactions`.execute(fresh.db);
}, 120_000);
afterAll(async () => { await fresh?.drop(); });

const outcome = (rules: RuleSetName, readSlices: number) => gainsOutcome(fresh.db, { databaseUrl: fresh.url, rules, year: YEAR, fiat: 'GBP', tz: TZ, readSlices });

describe('the valued ledger read in slices of time', () => {
  it('the bounds: equally long slices from the first time to the end, -infinity and infinity outside', () => {
    expect(sliceBounds(Date.parse('2024-01-01T00:00:00Z'), Date.parse('2024-01-05T00:00:00Z'), 4))
      .toEqual(['-infinity', '2024-01-02T00:00:00.000Z', '2024-01-03T00:00:00.000Z', '2024-01-04T00:00:00.000Z', 'infinity']);
    expect(sliceBounds(null, Date.parse('2024-01-05T00:00:00Z'), 4)).toEqual(['-infinity', 'infinity']);
    expect(sliceBounds(Date.parse('2024-01-05T00:00:00Z'), Date.parse('2024-01-05T00:00:00Z'), 4)).toEqual(['-infinity', 'infinity']);
    expect(sliceBounds(0, 2, 16)).toEqual(['-infinity', new Date(1).toISOString(), 'infinity']); // no empty slice of no time
  });

  it.each(RULES)('%s: every file and every stored row are the same read in 1, 2, 6 and 16 slices', async (rules) => {
    const one = await outcome(rules, 1);
    expect(one.slices).toBe(1);
    expect(one.disposals).toBeGreaterThan(10);
    for (const k of SLICES) {
      const sliced = await outcome(rules, k);
      expect(sliced.slices, `${k} slices asked`).toBe(k);
      expect({ ...sliced, slices: 1 }, `${rules} in ${k} slices`).toEqual(one);
    }
  }, 120_000);

  it.each(['aborted', 'failing'])('a run in slices that is %s stops, writes no file and leaves none of its three connections open', async (how) => {
    const scratch = await mkdtemp(path.join(tmpdir(), 'gains-stop-'));
    const out = path.join(scratch, 'out');
    const stop = new AbortController();
    let matching = 0;
    const run = runGains({
      databaseUrl: fresh.url, rules: 'uk', year: YEAR, fiat: 'GBP', tz: TZ, outDir: out, readSlices: 16, signal: stop.signal,
      onProgress: (p) => {
        if (p.stage !== 'matching' || ++matching !== 1) return;
        if (how === 'aborted') stop.abort(); else throw new Error('the matcher failed');
      },
    });
    await expect(run).rejects.toThrow(how === 'aborted' ? /./ : 'the matcher failed');
    expect(matching).toBeGreaterThan(0);
    expect(await readdir(out).catch(() => [])).toEqual([]);
    await rm(scratch, { recursive: true, force: true });
    // The server ends a backend a moment after its socket closes: wait for it (bounded, for a hang).
    const open = async () => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND application_name LIKE 'tradeledger-gains-%'`.execute(fresh.db)).rows[0]!.n;
    for (let i = 0; i < 300 && await open() > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await open()).toBe(0);
  }, 120_000);
});
