// The accountants' portal on a 1,000,000-row ledger. Run by hand; results go to BENCHMARKS.md:
//
//   npx tsx test/bench/portal.bench.ts                     # BENCH_ROWS=200000 for a quick run
//   BENCH_ONLY=pages npx tsx test/bench/portal.bench.ts    # the page timings only, no downloads
//   BENCH_EXPLAIN=1 ...                                    # also print the preview's first-window plan
//   BENCH_ONLY=accounts npx tsx test/bench/portal.bench.ts # the first accounts page after a sync, old and new paired
//
// A scratch database (BENCH_DATABASE_URL, default the 5432 service) is filled with synthetic
// ledger source rows for one account 'bench' in 2025 (the same generate_series shape as
// reportLedger.bench.ts), and `tradeledger serve` runs as a child process so its RSS is its own.
// Measured:
//   1. the accounts page and the report preview (ledger.csv, year 2025): 40 requests each, p50/p95
//      (the accounts page's first, cold request is listed apart: it fills the data-quality cache);
//   2. the full-year ledger.csv download against the CLI's own path (streamQueryToCsv of
//      reports/ledger.sql, as `tradeledger report` runs it), best of 2 each, bytes compared;
//   3. 20 downloads at once: the server's peak RSS (VmHWM from /proc) and the wall time.
// Targets (issue 13): p95 < 300 ms; download >= 0.8x the CLI's speed; 20 at once < 300 MB RSS.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { scratchDatabase } from './support/scratchDatabase.js';
import { machineInfo } from './support/machineInfo.js';
import { addUser } from '../../src/portal/portalUsers.js';
import { bindNamedParameters } from '../../src/reports/bindNamedParameters.js';
import { streamQueryToCsv } from '../../src/reports/streamQueryToCsv.js';
import { storeHealthCounts } from '../../src/db/accountHealthCounts.js';
import { defaultReportsDir } from '../../src/reports/runReports.js';

const total = Number(process.env.BENCH_ROWS ?? 1_000_000);
const fills = Math.round(total * 0.25);
const bills = Math.round(total * 0.1);
const deposits = total - 3 * fills - 2 * bills;
const port = Number(process.env.BENCH_PORT ?? 18_431);
const base = `http://127.0.0.1:${port}`;

const fillSql = `
INSERT INTO accounts (uid, name, kind) VALUES ('bench', 'bench main', 'main');
INSERT INTO sync_state (account_uid, stream, partition, watermark, status) VALUES
  ('bench', 'spotFills', 'all', '2026-01-01Z', 'ok'), ('bench', 'deposits', 'all', '2026-01-01Z', 'ok'),
  ('bench', 'futuresBills', 'USDT-FUTURES', '2026-01-01Z', 'ok');
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

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

async function signIn(username: string, password: string): Promise<string> {
  const form = await fetch(`${base}/login`);
  const loginCookie = form.headers.getSetCookie()[0]!.split(';')[0]!;
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
  const res = await fetch(`${base}/login`, {
    method: 'POST', redirect: 'manual',
    headers: { cookie: loginCookie, origin: base, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, username, password }).toString(),
  });
  return res.headers.getSetCookie().find((c) => c.startsWith('tl_session='))!.split(';')[0]!;
}

// A page by GET; a download (form given) by POST with the page's CSRF token, as the Reports page's buttons send it.
async function timed(url: string, cookie: string, form?: Record<string, string>): Promise<{ ms: number; bytes: number; sha256: string; status: number }> {
  const start = performance.now();
  const res = form === undefined ? await fetch(url, { headers: { cookie } }) : await fetch(url, {
    method: 'POST', body: new URLSearchParams(form).toString(),
    headers: { cookie, origin: base, 'content-type': 'application/x-www-form-urlencoded' },
  });
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) { hash.update(chunk); bytes += chunk.length; }
  return { ms: performance.now() - start, bytes, sha256: hash.digest('hex'), status: res.status };
}

function serverRss(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') * 1024, hwm: kb('VmHWM') * 1024 };
}

async function startServe(url: string, bin: string): Promise<ReturnType<typeof spawn>> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', String(port)], { env: { ...process.env, DATABASE_URL: url }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d) => { if (String(d).includes('portal at')) resolve(); });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
  });
  return child;
}

/**
 * Issue 24 item 6: the first accounts page after a sync, old and new in one run, alternating.
 * A sync is stood for by a finished sync_runs row (it changes the bookkeeping key, as a sync does).
 * old: nothing stored for the new key, so the page computes the whole-ledger counts (the code
 * before); new: the counts stored as the sync now does at its end (storeHealthCounts, timed: the
 * sync's added cost). Each time a fresh `serve`, so no in-memory cache helps.
 */
async function firstAccountsAfterSync(url: string, bin: string): Promise<void> {
  const rows: Record<string, string>[] = [];
  for (let round = 0; round < Number(process.env.BENCH_ROUNDS ?? 2); round++) {
    for (const variant of ['old: the page computes the counts', 'new: the sync stored them'] as const) {
      const pool = new pg.Pool({ connectionString: url, max: 2 });
      await pool.query(`INSERT INTO sync_runs (options, account_uids, finished_at, status) VALUES ('{}', '{bench}', clock_timestamp(), 'ok')`);
      let storeMs = NaN;
      if (variant.startsWith('new')) {
        const client = await pool.connect();
        const t = performance.now();
        try {
          await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
          await storeHealthCounts((text, values) => client.query(text, values).then((r) => r.rows));
          await client.query('COMMIT');
        } finally { client.release(); }
        storeMs = performance.now() - t;
      }
      await pool.end();
      const child = await startServe(url, bin);
      try {
        // The portal starts reading the counts as it starts, so the wait is also timed from then.
        const ready = performance.now();
        const cookie = await signIn('bench-acct', 'bench password 2');
        const first = await timed(`${base}/accounts`, cookie);
        const firstDone = performance.now();
        const second = await timed(`${base}/accounts`, cookie);
        rows.push({ variant, 'added to the sync ms': Number.isNaN(storeMs) ? '' : storeMs.toFixed(0), 'first accounts page ms': first.ms.toFixed(0), 'serve ready to first page ms (incl. sign-in)': (firstDone - ready).toFixed(0), 'second ms': second.ms.toFixed(0), load: (readFileSync('/proc/loadavg', 'utf8')).split(' ')[0]! });
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
    }
  }
  console.table(rows);
}

async function main(): Promise<void> {
  console.log(machineInfo());
  const scratch = await scratchDatabase('portal');
  const out = await mkdtemp(path.join(tmpdir(), 'tl-bench-portal-'));
  let child: ReturnType<typeof spawn> | undefined;
  try {
    const pool = new pg.Pool({ connectionString: scratch.url, max: 2 });
    const t0 = performance.now();
    await pool.query(fillSql);
    const ledgerRows = Number((await pool.query('SELECT count(*) AS n FROM ledger')).rows[0].n);
    console.log(`setup: ${ledgerRows} ledger rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    await addUser(pool, { username: 'bench-admin', password: 'bench password 1', role: 'admin', accounts: [] });
    await addUser(pool, { username: 'bench-acct', password: 'bench password 2', role: 'accountant', accounts: ['bench'] });
    if (process.env.BENCH_EXPLAIN) {
      // The preview's first window (ten minutes from 1 January), as reportPreview runs it.
      const ledgerSql = await readFile(path.join(defaultReportsDir, 'ledger.sql'), 'utf8');
      const first = bindNamedParameters(ledgerSql, { from: '2025-01-01', to: '2025-01-01 00:10:00', tz: 'UTC', account: 'bench' });
      const plan = await pool.query({ text: `EXPLAIN (ANALYZE, BUFFERS) SELECT * FROM (\n${first.text}\n) AS report LIMIT 21`, values: first.values });
      console.log(plan.rows.map((r) => r['QUERY PLAN']).join('\n'));
    }
    await pool.end();

    const bin = fileURLToPath(new URL('../../bin/tradeledger.js', import.meta.url));
    if (process.env.BENCH_ONLY === 'accounts') {
      await firstAccountsAfterSync(scratch.url, bin);
      return;
    }
    child = spawn(process.execPath, [bin, 'serve', '--port', String(port)], { env: { ...process.env, DATABASE_URL: scratch.url }, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child!.stdout!.on('data', (d) => { if (String(d).includes('portal at')) resolve(); });
      child!.on('exit', (code) => reject(new Error(`serve exited ${code}`)));
    });
    const pid = child.pid!;
    const cookie = await signIn('bench-acct', 'bench password 2');

    const cold = await timed(`${base}/accounts`, cookie);
    const accounts: number[] = [];
    for (let i = 0; i < 40; i++) accounts.push((await timed(`${base}/accounts`, cookie)).ms);
    const previewUrl = `${base}/reports/preview?account=bench&format=native&period=year&year=2025&tz=UTC&file=ledger.csv`;
    const previews: number[] = [];
    for (let i = 0; i < 40; i++) previews.push((await timed(previewUrl, cookie)).ms);
    console.table([
      { page: 'accounts (first request, cold cache)', n: 1, 'p50 ms': cold.ms.toFixed(0), 'p95 ms': cold.ms.toFixed(0) },
      { page: 'accounts', n: accounts.length, 'p50 ms': pct(accounts, 50).toFixed(0), 'p95 ms': pct(accounts, 95).toFixed(0) },
      { page: 'report preview (ledger.csv, 2025, 20 rows)', n: previews.length, 'p50 ms': pct(previews, 50).toFixed(0), 'p95 ms': pct(previews, 95).toFixed(0) },
    ]);

    if (process.env.BENCH_ONLY === 'pages') return;
    const sql = await readFile(path.join(defaultReportsDir, 'ledger.sql'), 'utf8');
    const bound = bindNamedParameters(sql, { from: '2025-01-01', to: '2026-01-01', tz: 'UTC', account: 'bench' });
    const cliRun = async () => {
      const client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
      try {
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        const start = performance.now();
        const r = await streamQueryToCsv(client, bound, path.join(out, 'ledger.csv'));
        return { ms: performance.now() - start, ...r };
      } finally { await client.end(); }
    };
    const downloadUrl = `${base}/download/file`;
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await (await fetch(`${base}/accounts`, { headers: { cookie } })).text())![1]!;
    const downloadForm = { account: 'bench', format: 'native', period: 'year', year: '2025', tz: 'UTC', file: 'ledger.csv', _csrf: csrf };
    const cliRuns: Awaited<ReturnType<typeof cliRun>>[] = [];
    const portalRuns: Awaited<ReturnType<typeof timed>>[] = [];
    for (let round = 0; round < 2; round++) {
      cliRuns.push(await cliRun());
      portalRuns.push(await timed(downloadUrl, cookie, downloadForm));
    }
    const cliMs = Math.min(...cliRuns.map((r) => r.ms));
    const portalMs = Math.min(...portalRuns.map((r) => r.ms));
    const rows = cliRuns[0]!.rows;
    console.table([
      { path: 'CLI: streamQueryToCsv(reports/ledger.sql) to a file', rows, 'best s': (cliMs / 1000).toFixed(2), 'rows/s': Math.round(rows / (cliMs / 1000)), MB: (cliRuns[0]!.bytes / 2 ** 20).toFixed(0) },
      { path: 'portal: POST /download/file (ledger.csv), to the client', rows, 'best s': (portalMs / 1000).toFixed(2), 'rows/s': Math.round(rows / (portalMs / 1000)), MB: (portalRuns[0]!.bytes / 2 ** 20).toFixed(0) },
    ]);
    console.log(`download speed vs CLI: ${(cliMs / portalMs).toFixed(2)}x (target >= 0.8x); bytes identical: ${portalRuns.every((r) => r.sha256 === cliRuns[0]!.sha256)}`);

    const before = serverRss(pid);
    let peak = before.rss;
    const sampler = setInterval(() => { peak = Math.max(peak, serverRss(pid).rss); }, 100);
    const start = performance.now();
    // 20 = the default 4 running + 16 waiting (serve --downloads, --download-queue): none is refused.
    const all = await Promise.all(Array.from({ length: 20 }, () => timed(downloadUrl, cookie, downloadForm)));
    clearInterval(sampler);
    const after = serverRss(pid);
    const mb = (b: number) => (b / 2 ** 20).toFixed(0);
    console.log(`20 downloads at once: ${((performance.now() - start) / 1000).toFixed(1)} s wall, all identical: ${all.every((r) => r.status === 200 && r.sha256 === cliRuns[0]!.sha256)}`);
    console.log(`server RSS: ${mb(before.rss)} MB before, peak sampled ${mb(peak)} MB, VmHWM (process lifetime peak) ${mb(after.hwm)} MB (target < 300 MB)`);
    console.log(`load average at the end: ${(await readFile('/proc/loadavg', 'utf8')).split(' ').slice(0, 3).join(' ')}`);
  } finally {
    child?.kill('SIGTERM');
    await rm(out, { recursive: true, force: true });
    await scratch.drop();
  }
}

await main();
