// Valuing a 1,000,000-row ledger (ledger_valued, migration 0052) next to a plain
// COPY (SELECT * FROM ledger) TO STDOUT in the same run, and next to the previous ledger_valued
// (migration 0027's, created in the scratch database as ledger_valued_0027). Run by hand, results go to
// BENCHMARKS.md:
//
//   npx tsx test/bench/valuation.bench.ts              # TEST_DATABASE_URL or the 5432 service
//   BENCH_ROWS=200000 npx tsx test/bench/valuation.bench.ts
//
// A scratch database is created, migrated and filled by SQL generate_series: 250k spot fills
// (BTCUSDT, ETHUSDT, ETHBTC) -> 500k trade legs + 250k fee rows (USDT, BTC, BGB), 100k futures
// bills -> 200k rows, 50k deposits (USDT, BTC, ETH, EUR); hourly candles for every hour the
// ledger spans and an ECB file for 2024-2025 imported through import fx. Each variant runs
// BENCH_ROUNDS times (default 2) in alternation and the best time counts. Output goes to a counting
// sink (no disk). Before timing, the old and the new function's full outputs are compared as text
// (md5 over the sorted md5s of every row's text, in USD and GBP), so a speed-up that changed any
// digit of any row shows.
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { migrate } from '../../src/db/migrate.js';
import { withDefaultUser } from '../../src/db/withDefaultUser.js';
import { createDb } from '../../src/db/createDb.js';
import { importFx } from '../../src/imports/importFx.js';
import { memoryFile } from '../support/memoryFile.js';
import { machineInfo } from './support/machineInfo.js';

const adminUrl = withDefaultUser(process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://127.0.0.1:5432/test');
const total = Number(process.env.BENCH_ROWS ?? 1_000_000);
const fills = Math.round(total * 0.25);
const bills = Math.round(total * 0.1);
const deposits = total - 3 * fills - 2 * bills;

const fillSql = `
INSERT INTO spot_fills (account_uid, trade_id, order_id, symbol, side, size, amount, price_avg, c_time, raw)
SELECT 'bench', 't' || i, 'o' || i, CASE i % 5 WHEN 0 THEN 'ETHBTC' WHEN 1 THEN 'ETHUSDT' ELSE 'BTCUSDT' END,
       CASE WHEN i % 2 = 0 THEN 'buy' ELSE 'sell' END, (i % 1000 + 1) / 10000.0, (i % 7919 + 1) * 1.23456789, 27000.5,
       '2025-01-01Z'::timestamptz + i * interval '10 seconds', '{}'
FROM generate_series(1, ${fills}) i;
INSERT INTO fees (account_uid, source, source_id, seq, coin, paid, format, c_time)
SELECT 'bench', 'spot_fills', 't' || i, 0, CASE i % 3 WHEN 0 THEN 'BGB' WHEN 1 THEN 'USDT' ELSE 'BTC' END, (i % 97 + 1) * 0.000000089, 'new',
       '2025-01-01Z'::timestamptz + i * interval '10 seconds'
FROM generate_series(1, ${fills}) i;
INSERT INTO futures_bills (account_uid, product_type, bill_id, symbol, coin, business_type, amount, fee, c_time, raw)
SELECT 'bench', 'USDT-FUTURES', 'b' || i, 'BTCUSDT', CASE WHEN i % 4 = 0 THEN 'BTC' ELSE 'USDT' END,
       CASE WHEN i % 2 = 0 THEN 'close_long' ELSE 'close_short' END,
       (i % 2001 - 1000.5) * 0.0123, -(i % 50 + 1) * 0.001, '2025-02-01Z'::timestamptz + i * interval '7 seconds', '{}'
FROM generate_series(1, ${bills}) i;
INSERT INTO deposits (account_uid, order_id, trade_id, coin, status, size, c_time, raw)
SELECT 'bench', 'd' || i, '0x' || md5(i::text), (ARRAY['USDT', 'BTC', 'ETH', 'EUR'])[i % 4 + 1], 'success',
       12345678901234.123456789012 / (i + 1), '2025-03-01Z'::timestamptz + i * interval '1 minute', '{}'
FROM generate_series(1, ${deposits}) i;
INSERT INTO price_symbols (coin, symbol, quote_coin) VALUES ('BTC', 'BTCUSDT', 'USDT'), ('ETH', 'ETHUSDT', 'USDT'), ('BGB', 'BGBUSDT', 'USDT');
INSERT INTO price_candles (symbol, granularity, ts, open, high, low, close, raw)
SELECT s.symbol, '1h', h, s.p, s.p * 1.01, s.p * 0.99, s.p + (extract(epoch FROM h)::bigint % 997) / 100.0, '[]'
FROM (VALUES ('BTCUSDT', 60000.5), ('ETHUSDT', 3000.25), ('BGBUSDT', 1.2345)) AS s(symbol, p)
CROSS JOIN generate_series('2024-12-31Z'::timestamptz, '2025-06-01Z'::timestamptz, interval '1 hour') h;
ANALYZE;`;

function ecbFile(): string {
  const lines = ['Date,USD,JPY,GBP,CHF,'];
  for (let t = Date.UTC(2025, 11, 31), k = 0; t >= Date.UTC(2024, 0, 1); t -= 86_400_000, k++) {
    const d = new Date(t);
    if (d.getUTCDay() === 0 || d.getUTCDay() === 6) continue;
    lines.push(`${d.toISOString().slice(0, 10)},${(1.03 + (k % 37) * 0.0011).toFixed(4)},${(155 + (k % 41) * 0.13).toFixed(2)},${(0.82 + (k % 29) * 0.0007).toFixed(4)},0.94,`);
  }
  return `${lines.join('\n')}\n`;
}

async function onClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: 'tradeledger bench' });
  await client.connect();
  try { return await fn(client); } finally { await client.end(); }
}

// BENCH_WORK_MEM=64MB runs both sides with that work_mem (the report runner's setting).
const workMem = process.env.BENCH_WORK_MEM;

async function copyOut(url: string, query: string): Promise<{ ms: number; rows: number; bytes: number }> {
  return onClient(url, async (c) => {
    if (workMem) await c.query(`SET work_mem = '${workMem.replace(/[^0-9A-Za-z]/g, '')}'`);
    let bytes = 0;
    const sink = new Writable({ write(chunk: Buffer, _e, done) { bytes += chunk.length; done(); } });
    const start = performance.now();
    const stream = c.query(copyTo(`COPY (${query}) TO STDOUT`));
    await pipeline(stream, sink);
    return { ms: performance.now() - start, rows: Number(stream.rowCount ?? 0), bytes };
  });
}

// migration 0027's ledger_valued, renamed, for the paired old/new comparison.
function oldFunctionSql(): string {
  const text = readFileSync(new URL('../../sql/migrations/0027_ledger_valued_faster.sql', import.meta.url), 'utf8');
  const start = text.indexOf('CREATE FUNCTION ledger_valued(');
  const end = text.indexOf('$$;', start) + 3;
  if (start < 0 || end < 3) throw new Error('sql/migrations/0027_ledger_valued_faster.sql: CREATE FUNCTION ledger_valued not found');
  return text.slice(start, end).replace('CREATE FUNCTION ledger_valued(', 'CREATE FUNCTION ledger_valued_0027(');
}

async function main(): Promise<void> {
  console.log(machineInfo());
  console.log(`work_mem: ${workMem ?? 'server default'}`);
  const name = `tl_bench_value_${Date.now().toString(36)}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dbUrl = url.toString();
  await onClient(adminUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
  try {
    await migrate(dbUrl);
    const t0 = performance.now();
    await onClient(dbUrl, (c) => c.query(fillSql));
    const db = createDb(dbUrl, { name: 'bench', maxConnections: 2 });
    const text = ecbFile();
    await importFx(db, memoryFile('eurofxref-hist.csv', text));
    await db.destroy();
    await onClient(dbUrl, (c) => c.query('ANALYZE'));
    const ledgerRows = await onClient(dbUrl, async (c) => Number((await c.query('SELECT count(*) AS n FROM ledger')).rows[0].n));
    console.log(`setup: ${ledgerRows} ledger rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    await onClient(dbUrl, (c) => c.query(oldFunctionSql()));
    const digest = (fn: string, fiat: string) => `SELECT md5(string_agg(h, '' ORDER BY h)) AS d, count(*)::int AS n FROM (SELECT md5(t::text) AS h FROM ${fn}('${fiat}') t) x`;
    for (const fiat of ['USD', 'GBP']) {
      const [a, b] = await onClient(dbUrl, async (c) => [(await c.query(digest('ledger_valued_0027', fiat))).rows[0], (await c.query(digest('ledger_valued', fiat))).rows[0]]);
      console.log(`equality ${fiat}: migration 0027 ${a.n} rows md5 ${a.d}, migration 0052 ${b.n} rows md5 ${b.d}: ${a.d === b.d && a.n === b.n ? 'IDENTICAL' : 'DIFFERENT'}`);
    }
    const rules = await onClient(dbUrl, async (c) => (await c.query("SELECT price_source, count(*)::int AS n FROM ledger_valued('GBP') GROUP BY 1 ORDER BY 1")).rows);
    console.log(`rules used (GBP): ${rules.map((r: { price_source: string; n: number }) => `${r.price_source} ${r.n}`).join(', ')}`);

    const variants = [
      { name: 'COPY (SELECT * FROM ledger) TO STDOUT', query: 'SELECT * FROM ledger' },
      { name: "COPY (SELECT * FROM ledger_valued('USD')) TO STDOUT", query: "SELECT * FROM ledger_valued('USD')" },
      { name: "COPY (SELECT * FROM ledger_valued('GBP')) TO STDOUT", query: "SELECT * FROM ledger_valued('GBP')" },
      { name: "old: COPY (SELECT * FROM ledger_valued_0027('USD')) TO STDOUT", query: "SELECT * FROM ledger_valued_0027('USD')" },
      { name: "old: COPY (SELECT * FROM ledger_valued_0027('GBP')) TO STDOUT", query: "SELECT * FROM ledger_valued_0027('GBP')" },
    ];
    const runs = variants.map(() => [] as { ms: number; rows: number; bytes: number }[]);
    const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
    for (let round = 0; round < rounds; round++) {
      for (let v = 0; v < variants.length; v++) {
        const run = await copyOut(dbUrl, variants[v]!.query);
        runs[v]!.push(run);
        console.log(`round ${round + 1}: ${(run.ms / 1000).toFixed(2)} s ${variants[v]!.name}`);
      }
    }
    const best = runs.map((r) => Math.min(...r.map((x) => x.ms)));
    const plain = best[0]!;
    console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' / ')}`);
    console.log('\n| method | rows | best s | rows/s | speed vs plain COPY |\n|---|---:|---:|---:|---:|');
    variants.forEach((v, i) => {
      const rows = runs[i]![0]!.rows;
      console.log(`| ${v.name} | ${rows.toLocaleString('en-US')} | ${(best[i]! / 1000).toFixed(2)} | ${Math.round(rows / (best[i]! / 1000)).toLocaleString('en-US')} | ${(plain / best[i]!).toFixed(2)}x |`);
    });
    console.log(`\ntarget: valuing >= 0.5x the speed of the plain COPY; USD ${(plain / best[1]!).toFixed(2)}x, GBP ${(plain / best[2]!).toFixed(2)}x (migration 0027: USD ${(plain / best[3]!).toFixed(2)}x, GBP ${(plain / best[4]!).toFixed(2)}x)`);
  } finally {
    // BENCH_KEEP=1 leaves the database for EXPLAIN ANALYZE.
    if (process.env.BENCH_KEEP) console.log(`kept ${dbUrl}`);
    else await onClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  }
}

await main();
