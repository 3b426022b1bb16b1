import { describe, expect, it, beforeAll } from 'vitest';
import { sql } from 'kysely';
import { sandboxWithDatabase } from '../support/sandboxWithDatabase.js';
import { runSync } from '../../src/extract/runSync.js';
import { testSyncOptions } from '../support/testSync.js';
import type { SyncEvent } from '../../src/extract/syncEvent.js';
import { importFx } from '../../src/imports/importFx.js';
import { memoryFile } from '../support/memoryFile.js';

const DAY = 86_400_000;
const env = sandboxWithDatabase();

/**
 * A test-made ECB file: weekdays only (weekends take Friday's rate), newest first, rates as exact
 * decimals that move from day to day.
 */
function ecbFile(fromMs: number, toMs: number): string {
  const lines = ['Date,USD,JPY,GBP,CHF,'];
  for (let t = Math.floor(toMs / DAY) * DAY, k = 0; t >= fromMs - 7 * DAY; t -= DAY, k++) {
    const d = new Date(t);
    if (d.getUTCDay() === 0 || d.getUTCDay() === 6) continue;
    const f = (base: number, step: number) => (base + (k % 37) * step).toFixed(4);
    lines.push(`${d.toISOString().slice(0, 10)},${f(1.03, 0.0011)},${f(155, 0.13)},${f(0.82, 0.0007)},${k % 11 === 0 ? 'N/A' : f(0.94, 0.0003)},`);
  }
  return `${lines.join('\n')}\n`;
}

// ledger_valued leaves the demo-trading account's rows out by default (sql/schema/functions/ledger_valued.sql), so the rows it
// values are the ledger's other rows; with include_demo it gives all of them, the demo ones at 0.
let ledgerRows = 0;
let allLedgerRows = 0;
beforeAll(async () => {
  const events: SyncEvent[] = [];
  const r = await runSync({ ...testSyncOptions(env.sandbox, env.fresh.db), emit: (e) => events.push(e) });
  expect(r.errors).toEqual([]);
  const prices = r.counts[Object.keys(r.counts).find((k) => k.endsWith('/prices/all'))!]!;
  expect(prices.inserted).toBeGreaterThan(0);
  // The live display sees the prices stream move: a window per candle request, its candles as pages
  // (before, it showed "0 records, windows 0/0" for the whole stream).
  const ofPrices = events.filter((e): e is Extract<SyncEvent, { stream: string }> => 'stream' in e && e.stream === 'prices');
  const sum = (t: string, f: (e: any) => number) => ofPrices.filter((e) => e.type === t).reduce((n, e) => n + f(e), 0);
  expect(sum('windows-added', (e) => e.windows)).toBe(prices.windows);
  expect(sum('window-done', () => 1)).toBe(prices.windows);
  expect(sum('page', (e) => e.records)).toBe(prices.inserted + prices.updated + prices.unchanged);
  const { rows } = await sql<{ n: string; all: string; first: Date }>`SELECT count(*) FILTER (WHERE NOT demo) AS n, count(*) AS all, min(ts) AS first FROM ledger`.execute(env.fresh.db);
  ledgerRows = Number(rows[0]!.n);
  allLedgerRows = Number(rows[0]!.all);
  expect(allLedgerRows).toBeGreaterThan(ledgerRows);
  const imported = await importFx(env.fresh.db, memoryFile('eurofxref-hist.csv', ecbFile(rows[0]!.first.getTime(), env.sandbox.world.now())));
  expect(imported.inserted).toBeGreaterThan(0);
}, 300_000);

describe('a sandbox sync plus import fx values every ledger row', () => {
  it.each(['USD', 'EUR', 'GBP'])('in %s, none unpriced', async (fiat) => {
    const { rows } = await sql<{ price_source: string; n: string; valued: string }>`
      SELECT price_source, count(*) AS n, count(value) AS valued FROM ledger_valued(${fiat}) GROUP BY 1`.execute(env.fresh.db);
    const by = Object.fromEntries(rows.map((r) => [r.price_source, Number(r.n)]));
    expect(by.unpriced ?? 0).toBe(0);
    expect(rows.reduce((n, r) => n + Number(r.valued), 0)).toBe(ledgerRows);
    const withDemo = await sql<{ n: string; demo: string }>`
      SELECT count(value) AS n, count(*) FILTER (WHERE price_source = 'demo' AND value = 0) AS demo FROM ledger_valued(${fiat}, '-infinity', 'infinity', true)`.execute(env.fresh.db);
    expect(withDemo.rows[0]).toEqual({ n: String(allLedgerRows), demo: String(allLedgerRows - ledgerRows) });
    // The sandbox's history exercises the exchange's own rules.
    expect(by.candle).toBeGreaterThan(0);
    expect(by.stablecoin_quote).toBeGreaterThan(0);
    expect(by.fill_price).toBeGreaterThan(0);
    expect(by.stablecoin).toBeGreaterThan(0);
  });

  it('converts between fiats by the day\'s ECB rates: EUR = USD / (USD per EUR), GBP = EUR x (GBP per EUR)', async () => {
    const { rows } = await sql<{ rows: string; off: string }>`
      WITH u AS MATERIALIZED (SELECT * FROM ledger_valued('USD')),
           e AS MATERIALIZED (SELECT * FROM ledger_valued('EUR')),
           g AS MATERIALIZED (SELECT * FROM ledger_valued('GBP'))
      SELECT count(*) AS rows, count(*) FILTER (WHERE abs(e.value - u.value / fx.per_eur) > 1e-9 * greatest(1, abs(u.value))
                                          OR abs(g.value - e.value * gb.per_eur) > 1e-9 * greatest(1, abs(u.value))) AS off
      FROM u
      JOIN e USING (account_uid, wallet, source, source_id, leg)
      JOIN g USING (account_uid, wallet, source, source_id, leg)
      JOIN fx_rates_daily fx ON fx.currency = 'USD' AND fx.day = (u.ts AT TIME ZONE 'UTC')::date
      JOIN fx_rates_daily gb ON gb.currency = 'GBP' AND gb.day = (u.ts AT TIME ZONE 'UTC')::date`.execute(env.fresh.db);
    expect(Number(rows[0]!.rows)).toBe(ledgerRows);
    expect(rows[0]!.off).toBe('0');
  });

  it('prices a trade by its own stablecoin quote, and other rows by the candle of their hour', async () => {
    const { rows } = await sql<{ bad_quote: string; bad_candle: string; candles: string }>`
      SELECT count(*) FILTER (WHERE v.price_source = 'stablecoin_quote' AND v.leg IN ('base', 'quote') AND abs(v.value) <> abs(f.amount)) AS bad_quote,
             count(*) FILTER (WHERE v.price_source = 'candle' AND v.price_time <> date_trunc('hour', v.ts)) AS bad_candle,
             count(*) FILTER (WHERE v.price_source = 'candle') AS candles
      FROM ledger_valued('USD') v
      LEFT JOIN spot_fills f ON v.source = 'spot_fills' AND f.account_uid = v.account_uid AND f.trade_id = v.source_id`.execute(env.fresh.db);
    expect(rows[0]).toMatchObject({ bad_quote: '0', bad_candle: '0' });
    expect(Number(rows[0]!.candles)).toBeGreaterThan(0);
  });

  it('a second sync asks only for the hour still running', async () => {
    const symbols = await sql<{ n: string }>`SELECT count(DISTINCT symbol) AS n FROM price_symbols`.execute(env.fresh.db);
    const again = await runSync(testSyncOptions(env.sandbox, env.fresh.db));
    const prices = again.counts[Object.keys(again.counts).find((k) => k.endsWith('/prices/all'))!]!;
    expect(prices.requests).toBeLessThanOrEqual(Number(symbols.rows[0]!.n));
  }, 120_000);
});

describe('the views and functions answer the same in any session zone (an analyst\'s psql)', () => {
  // An analyst's psql runs in the server's zone (initdb took the machine's) or PGTZ; our own
  // sessions are UTC (src/db/pools.ts). Every view and the functions analysts call must mean UTC
  // wherever they turn a time into an hour or a day, so each is read twice in one transaction (one
  // now()) at UTC and at +05:30 (with other date and interval styles), and the rows compared as
  // values (a timestamptz is an instant).
  const relations = async (): Promise<string[]> => {
    const views = await sql<{ v: string }>`SELECT format('%I', viewname) AS v FROM pg_views WHERE schemaname = 'public' ORDER BY 1`.execute(env.fresh.db);
    return [...views.rows.map((r) => r.v), `ledger_valued('GBP')`, `ledger_valued_uncorrected('EUR')`, `tax_transactions('-infinity', 'infinity', '')`];
  };
  const differing = async (relation: string): Promise<number> => env.fresh.db.transaction().execute(async (trx) => {
    await sql`SET LOCAL TimeZone = 'UTC'`.execute(trx);
    await sql.raw(`CREATE TEMP TABLE zone_utc ON COMMIT DROP AS SELECT * FROM ${relation}`).execute(trx);
    await sql`SET LOCAL TimeZone = 'Asia/Kolkata'`.execute(trx);
    await sql`SET LOCAL DateStyle = 'SQL, DMY'`.execute(trx);
    await sql`SET LOCAL IntervalStyle = 'sql_standard'`.execute(trx);
    const { rows } = await sql.raw<{ n: string }>(`SELECT (SELECT count(*) FROM (SELECT * FROM ${relation} EXCEPT ALL SELECT * FROM zone_utc) a)
      + (SELECT count(*) FROM (SELECT * FROM zone_utc EXCEPT ALL SELECT * FROM ${relation}) b) AS n`).execute(trx);
    return Number(rows[0]!.n);
  });

  it('every view, ledger_valued, ledger_valued_uncorrected and tax_transactions', async () => {
    const all = await relations();
    expect(all.length).toBeGreaterThan(10);
    const found: Record<string, number> = {};
    for (const r of all) found[r] = await differing(r);
    expect(Object.entries(found).filter(([, n]) => n > 0)).toEqual([]);
    // Not an empty comparison: the ledger and its valuation have rows here.
    const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM ledger_valued('GBP')`.execute(env.fresh.db);
    expect(Number(rows[0]!.n)).toBeGreaterThan(0);
  }, 120_000);

  it('the check sees a view that follows the session\'s zone (a planted date_trunc of the hour)', async () => {
    await sql`CREATE VIEW zone_planted AS SELECT coin, date_trunc('hour', ts) AS hour FROM ledger`.execute(env.fresh.db);
    try {
      expect(await differing('zone_planted')).toBeGreaterThan(0);
    } finally {
      await sql`DROP VIEW zone_planted`.execute(env.fresh.db);
    }
  });
});
