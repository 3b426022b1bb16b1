// ledger.csv generation vs PostgreSQL's own COPY of the same query, on 1,000,000 ledger rows.
// Run by hand, results go to BENCHMARKS.md:
//
//   npx tsx test/bench/reportLedger.bench.ts          # TEST_DATABASE_URL or the 5432 service
//   DATABASE_URL=postgresql://... BENCH_ROWS=1000000 BENCH_ROUNDS=5 npx tsx test/bench/reportLedger.bench.ts
//   BENCH_VARIANTS=all npx tsx test/bench/reportLedger.bench.ts     # the Node-path writers as well
//
// A scratch database is created, migrated, filled with synthetic source rows by SQL
// generate_series (250k spot fills -> 500k trade legs + 250k fee rows, 100k futures close bills
// -> 200k PnL and fee rows, 50k deposits), and dropped at the end. Each variant runs BENCH_ROUNDS
// times (default 5), alternating (every other round in reverse order, so no variant always
// follows the same one); the median time of each is compared with the plain COPY's median.
// Peak RSS is sampled while ledger.csv is written. Variants (old and new paired in one run):
//   new: streamQueryToCsv as `tradeledger report` runs it (COPY, formula guard on its bytes:
//        CsvGuard's fast scan of quote-free chunks);
//   plain COPY of the same query to a file (no guard, no hash): the yardstick;
//   old guard (a7cff13): the same COPY through CsvGuard's byte-by-byte state machine
//        (support/csvGuardBefore.ts);
// and with BENCH_VARIANTS=all: the Node path ({ copy: false }, one-pass csvLines), and
// streamQueryToCsv of commit edfd573 (support/streamQueryToCsvBefore.ts) with and without
// csv-stringify on every row.
// Every file must be byte-identical to the plain COPY's (the fixture has no formula-like cell).
import { createReadStream, createWriteStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { migrate } from '../../src/db/migrate.js';
import { withDefaultUser } from '../../src/db/withDefaultUser.js';
import { bindNamedParameters } from '../../src/reports/bindNamedParameters.js';
import { copyPlan, streamQueryToCsv } from '../../src/reports/streamQueryToCsv.js';
import { CsvGuard as CsvGuardBefore } from './support/csvGuardBefore.js';
import { machineInfo } from './support/machineInfo.js';
import { markdownTable } from './support/markdownTable.js';
import { streamQueryToCsv as streamQueryToCsvBefore } from './support/streamQueryToCsvBefore.js';
import { processCpuSeconds } from './support/processCpu.js';
import { defaultReportsDir } from '../../src/reports/runReports.js';

const adminUrl = withDefaultUser(process.env.DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://127.0.0.1:5432/test');
const total = Number(process.env.BENCH_ROWS ?? 1_000_000);
const fills = Math.round(total * 0.25);
const bills = Math.round(total * 0.1);
const deposits = total - 3 * fills - 2 * bills;

const fillSql = `
INSERT INTO spot_fills (account_uid, trade_id, order_id, symbol, side, size, amount, price_avg, c_time, raw)
SELECT 'bench', 't' || i, 'o' || i, CASE WHEN i % 3 = 0 THEN 'ETHUSDT' ELSE 'BTCUSDT' END,
       CASE WHEN i % 2 = 0 THEN 'buy' ELSE 'sell' END, (i % 1000 + 1) / 10000.0, (i % 7919 + 1) * 1.23456789, 27000.5,
       '2025-01-01Z'::timestamptz + i * interval '1 second', '{}'
FROM generate_series(1, ${fills}) i;
INSERT INTO fees (account_uid, source, source_id, seq, coin, paid, format, c_time)
SELECT 'bench', 'spot_fills', 't' || i, 0, CASE WHEN i % 5 = 0 THEN 'BGB' ELSE 'USDT' END, (i % 97 + 1) * 0.000000089, 'new',
       '2025-01-01Z'::timestamptz + i * interval '1 second'
FROM generate_series(1, ${fills}) i;
INSERT INTO futures_bills (account_uid, product_type, bill_id, symbol, coin, business_type, amount, fee, c_time, raw)
SELECT 'bench', 'USDT-FUTURES', 'b' || i, 'BTCUSDT', 'USDT', CASE WHEN i % 2 = 0 THEN 'close_long' ELSE 'close_short' END,
       (i % 2001 - 1000.5) * 0.0123, -(i % 50 + 1) * 0.001, '2025-02-01Z'::timestamptz + i * interval '7 seconds', '{}'
FROM generate_series(1, ${bills}) i;
INSERT INTO deposits (account_uid, order_id, trade_id, coin, status, size, c_time, raw)
SELECT 'bench', 'd' || i, '0x' || md5(i::text), 'USDT', 'success', 12345678901234.123456789012 / (i + 1), '2025-03-01Z'::timestamptz + i * interval '1 minute', '{}'
FROM generate_series(1, ${deposits}) i;
ANALYZE;`;

async function onClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: 'tradeledger bench' });
  await client.connect();
  try { return await fn(client); } finally { await client.end(); }
}

function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

async function sha256(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

// A server process's user+system CPU in ms from /proc (same machine only), or null.
async function backendCpuMs(pid: number): Promise<number | null> {
  try {
    return processCpuSeconds(pid) * 1000;
  } catch {
    return null;
  }
}

async function main(): Promise<void> {
  const name = `tl_bench_report_${Date.now().toString(36)}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dbUrl = url.toString();
  const out = await mkdtemp(path.join(tmpdir(), 'tl-bench-'));
  await onClient(adminUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
  try {
    await migrate(dbUrl);
    const t0 = performance.now();
    console.log(machineInfo());
    await onClient(dbUrl, (c) => c.query(fillSql));
    const ledgerRows = await onClient(dbUrl, async (c) => Number((await c.query('SELECT count(*) AS n FROM ledger')).rows[0].n));
    console.log(`setup: ${ledgerRows} ledger rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const params = { from: '2025-01-01', to: '2026-01-01', tz: 'UTC', account: '' };
    const bound = bindNamedParameters(await readFile(path.join(defaultReportsDir, 'ledger.sql'), 'utf8'), params);
    const copySql = bound.text.replace(/\$(\d+)::text/g, (_m, n: string) => `${literal(bound.values[Number(n) - 1]!)}::text`);

    let peakRss = process.memoryUsage().rss;
    type Variant = { label: string; run: (c: pg.Client, file: string) => Promise<{ rows: number; bytes: number }> };
    const plainCopy = `COPY (${copySql}) TO STDOUT WITH (FORMAT csv, HEADER true)`;
    const variants: Variant[] = [
      { label: 'new: ledger.csv by COPY through CsvGuard, fast scan (the default)', run: (c, f) => streamQueryToCsv(c, bound, f) },
      { label: 'plain COPY (SELECT ... FROM ledger ...) TO STDOUT CSV to the file, no guard', run: async (c, f) => {
        const stream = c.query(copyTo(plainCopy));
        await pipeline(stream, createWriteStream(f));
        return { rows: Number(stream.rowCount ?? 0), bytes: 0 };
      } },
      { label: 'old (a7cff13): COPY through the byte-by-byte CsvGuard', run: async (c, f) => {
        // As streamQueryToCsv ran it then: the plan (LIMIT 0 describe), the file opened, the guard.
        const copy = (await copyPlan(c, bound))!;
        const file = createWriteStream(f);
        await new Promise<void>((resolve, reject) => { file.once('open', () => resolve()); file.once('error', reject); });
        const guard = new CsvGuardBefore();
        const stream = c.query(copyTo(copy));
        await pipeline(stream, guard, file);
        return { rows: Number(stream.rowCount ?? 0), bytes: guard.bytes };
      } },
    ];
    if (process.env.BENCH_VARIANTS === 'all') {
      variants.push(
        { label: 'new, Node path (copy: false): one-pass csvLines', run: (c, f) => streamQueryToCsv(c, bound, f, { copy: false }) },
        { label: 'old (edfd573): csvLines, plain rows joined, others csv-stringify', run: (c, f) => streamQueryToCsvBefore(c, bound, f) },
        { label: 'old (edfd573): every row through csv-stringify', run: (c, f) => streamQueryToCsvBefore(c, bound, f, { fastPath: false }) },
      );
    }
    const timings = variants.map(() => [] as number[]);
    const cpu = variants.map(() => [] as number[]); // this process's user+system CPU ms: the writer's own work, less swayed by the load
    const serverCpu = variants.map(() => [] as number[]); // the PostgreSQL backend's CPU ms (NaN where /proc cannot tell)
    const results = variants.map(() => ({ rows: 0, bytes: 0 }));
    const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
    for (let round = 0; round < rounds; round++) {
      const order = [...variants.keys()];
      if (round % 2 === 1) order.reverse();
      for (const i of order) {
        const v = variants[i]!;
        await onClient(dbUrl, async (c) => {
          const backend = Number((await c.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
          const b0 = await backendCpuMs(backend);
          const sampler = setInterval(() => { peakRss = Math.max(peakRss, process.memoryUsage().rss); }, 20);
          try {
            const start = performance.now();
            const c0 = process.cpuUsage();
            results[i] = await v.run(c, path.join(out, `v${i}.csv`));
            timings[i]!.push(performance.now() - start);
            const used = process.cpuUsage(c0);
            cpu[i]!.push((used.user + used.system) / 1000);
            const b1 = await backendCpuMs(backend);
            serverCpu[i]!.push(b0 === null || b1 === null ? NaN : b1 - b0);
          } finally { clearInterval(sampler); }
        });
      }
      console.log(`round ${round + 1}: ${variants.map((_, i) => (timings[i]!.at(-1)! / 1000).toFixed(2)).join(' ')} s; load ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}`);
    }
    const processMaxRss = process.resourceUsage().maxRSS * 1024;
    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
    const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); const h = s.length >> 1; return s.length % 2 === 1 ? s[h]! : (s[h - 1]! + s[h]!) / 2; };
    const copyMedian = median(timings[1]!);
    // The plain COPY's time over this variant's in the same round (the two ran side by side,
    // under the same load), median over the rounds: steadier than a ratio of medians.
    const pairedRatio = (i: number) => median(timings[i]!.map((t, round) => timings[1]![round]! / t));
    const reference = await sha256(path.join(out, 'v1.csv'));
    const table: (string | number)[][] = [];
    for (const [i, v] of variants.entries()) {
      const mid = median(timings[i]!);
      const sameBytes = (await sha256(path.join(out, `v${i}.csv`))) === reference;
      if (!sameBytes) console.error(`${v.label}: the file differs from the plain COPY's`);
      table.push([
        v.label, Number((mid / 1000).toFixed(2)), timings[i]!.map((t) => (t / 1000).toFixed(2)).join(' '),
        Number((copyMedian / mid).toFixed(2)), Number(pairedRatio(i).toFixed(2)), Number((median(cpu[i]!) / 1000).toFixed(2)),
        Number((median(serverCpu[i]!) / 1000).toFixed(2)), sameBytes ? 'yes' : '**no**',
      ]);
    }
    console.log(`\n${results[0]!.rows} rows, ${mb(results[0]!.bytes)} MB; ${rounds} rounds\n`);
    console.log(markdownTable(['method', 'median s', 'all s (by round)', 'vs COPY (ratio of medians)', 'vs COPY (median of per-round ratios)', 'Node CPU s (median)', 'PostgreSQL backend CPU s (median)', 'same bytes as COPY'], table));
    console.log(`\nload average at the end: ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')} on ${availableParallelism()} cores`);
    console.log(`peak RSS while writing: ${mb(peakRss)} MB sampled, process max ${mb(processMaxRss)} MB (target < 200 MB)`);
  } finally {
    await rm(out, { recursive: true, force: true });
    await onClient(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  }
}

await main();
